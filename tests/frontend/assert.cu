//pass
//args: --blockDim=32 --gridDim=2
// CUDA: an assertion over the thread index and a private array.
__global__ void priv(int *A) {
  int p[4];
  p[0] = threadIdx.x;
  p[1] = threadIdx.x + 1;
  __assert(p[0] == threadIdx.x);
  A[blockIdx.x * blockDim.x + threadIdx.x] = p[1];
}
