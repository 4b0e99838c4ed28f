//xfail:assertion
//args: --blockDim=32 --gridDim=2
//error-line: 9
// p[1] is threadIdx.x + 1, not threadIdx.x.
__global__ void priv(int *A) {
  int p[4];
  p[0] = threadIdx.x;
  p[1] = threadIdx.x + 1;
  __assert(p[1] == threadIdx.x);
  A[blockIdx.x * blockDim.x + threadIdx.x] = p[0];
}
