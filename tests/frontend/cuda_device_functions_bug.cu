//xfail:race
//args: --blockDim=64 --gridDim=16
//error-line: 9
// cuda_device_functions.cu with every thread storing its texel at one index: the values are
// arbitrary (a texture fetch), so the writes race.
texture<float, 1, cudaReadModeElementType> weights;

__global__ void scale(float *out, uint4 *quads) {
  out[warpSize] = tex1Dfetch(weights, __umul24(blockIdx.x, blockDim.x) + threadIdx.x);
}
