//pass
//args: --blockDim=64 --gridDim=4
// __syncthreads_or is a __syncthreads that returns the same value to every thread of the
// block: the barrier in the branch on it is reached by all threads of a block or by none, and
// it orders the write of each element before the neighbour's read. Twin: syncthreads_or_divergent.cu.
__global__ void k(int *out, const int *flags) {
  __shared__ int t[64];
  int i = threadIdx.x;
  t[i] = flags[blockIdx.x * 64 + i];
  if (__syncthreads_or(t[i] > 0)) {
    out[blockIdx.x * 64 + i] = t[(i + 1) % 64];
    __syncthreads();
    t[i] = 0;
  }
}
