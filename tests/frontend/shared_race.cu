//xfail:race
//args: --blockDim=64 --gridDim=4 -DMUTATION
//error-lines: 9, 13
// shared.cu without __syncthreads (compiled with -DMUTATION): the read of a neighbour's
// element races with its write.
__global__ void rotate(int *A) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = A[blockIdx.x * blockDim.x + t];
#ifndef MUTATION
  __syncthreads();
#endif
  A[blockIdx.x * blockDim.x + t] = s[(t + 1) % 64];
}
