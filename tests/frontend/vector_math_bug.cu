//xfail:assertion
//args: --blockDim=64 --gridDim=4
//error-lines: 10
// vector_math.cu's integer assertion off by one: the `int4` operators compute exactly, so
// the wrong claim about the `.w` field fails.
__global__ void shade(int4 *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int4 k = make_int4((int)i) + make_int4(1, 2, 3, 4);
  k *= 2;
  __assert(k.w == 2 * (int)i + 7);
  out[i] = k;
}
