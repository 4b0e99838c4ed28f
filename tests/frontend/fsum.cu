//pass
//args: --blockDim=128 --gridDim=4
// A float sum with atomicAdd on shared and global memory.
__global__ void sum(const float *x, float *total) {
  __shared__ float partial;
  if (threadIdx.x == 0) {
    partial = 0.0f;
  }
  __syncthreads();
  atomicAdd(&partial, x[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(total, partial);
  }
}
