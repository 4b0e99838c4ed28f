//pass
//args: --blockDim=64 --gridDim=4
// __syncthreads_count is a barrier reached by every thread; a thread whose predicate holds
// counts itself, so the count is not zero where the predicate holds. Twin:
// syncthreads_count_bug.cu.
__global__ void k(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = in[i] > 0;
  int n = __syncthreads_count(p);
  if (p)
    __assert(n != 0);
  out[i] = n;
}
