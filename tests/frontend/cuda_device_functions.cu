//pass
//args: --blockDim=64 --gridDim=16
// Declarations of kivl's CUDA header: `warpSize`, `__mul24`/`__umul24`, the math functions
// (uninterpreted), the vector types with `make_*`, and texture fetches (arbitrary values).
texture<float, 1, cudaReadModeElementType> weights;

__global__ void scale(float *out, uint4 *quads) {
  unsigned i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
  __assert(warpSize == 32);
  __assert(__mul24(1 << 24, 3) == 0);
  out[i] = __expf(tex1Dfetch(weights, i)) + sqrtf(2.0f) + min(1.0f, out[i]);
  quads[i] = make_uint4(i, i + 1, i + 2, i + 3);
}
