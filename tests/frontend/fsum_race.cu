//xfail:race
//args: --blockDim=128 --gridDim=4 -DMUTATION
//error-lines: 12, 15
// fsum.cu adding into the block's partial sum with a plain `+=` (compiled with -DMUTATION):
// an atomic and a plain access of the same element race.
__global__ void sum(const float *x, float *total) {
  __shared__ float partial;
  if (threadIdx.x == 0) {
    partial = 0.0f;
  }
  __syncthreads();
  atomicAdd(&partial, x[blockIdx.x * blockDim.x + threadIdx.x]);
#ifdef MUTATION
  if (threadIdx.x == 1) {
    partial += 1.0f;
  }
#endif
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(total, partial);
  }
}
