//xfail:unsupported
//args: --blockDim=32 --gridDim=1
//error-line: 7
// A memcpy whose length is not a constant stays unsupported (never a verdict).
__global__ void copy(int *out, const int *in, unsigned n) {
  __shared__ int tile[64];
  __builtin_memcpy(&tile[threadIdx.x], &in[threadIdx.x], n);
  out[threadIdx.x] = tile[threadIdx.x];
}
