//xfail:race
//args: --blockDim=64 --gridDim=4
//error-lines: 15, 15
// ptr_in_struct.cu with the index of the thread in its block only: threads of different blocks
// write the same element of the array the stored pointer points into.
struct Out {
  int *dst;
  int n;
};

__global__ void k(int *A, int *B, int c) {
  Out o;
  o.dst = c ? A : B;
  o.n = threadIdx.x;
  o.dst[o.n] = blockIdx.x;
}
