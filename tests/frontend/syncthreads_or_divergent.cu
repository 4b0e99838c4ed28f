//xfail:divergence
//args: --blockDim=64 --gridDim=4
//error-line: 12
// syncthreads_or.cu branching on the thread's own flag instead of the block's: the
// __syncthreads in the branch is reached by only some threads of a block.
__global__ void k(int *out, const int *flags) {
  __shared__ int t[64];
  int i = threadIdx.x;
  t[i] = flags[blockIdx.x * 64 + i];
  if (__syncthreads_or(t[i] > 0) && t[i] > 0) {
    out[blockIdx.x * 64 + i] = t[(i + 1) % 64];
    __syncthreads();
    t[i] = 0;
  }
}
