//pass
//args: --blockDim=64 --gridDim=4
// CUDA: a shared-memory rotation with __syncthreads between the write and the read.
__global__ void rotate(int *A) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = A[blockIdx.x * blockDim.x + t];
  __syncthreads();
  A[blockIdx.x * blockDim.x + t] = s[(t + 1) % 64];
}
