//xfail:assertion
//args: --blockDim=64 --gridDim=4
//error-line: 11
// syncthreads_count.cu asserting a count above 1: a single thread of the block may be
// the only one whose predicate holds.
__global__ void k(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = in[i] > 0;
  int n = __syncthreads_count(p);
  if (p)
    __assert(n > 1);
  out[i] = n;
}
