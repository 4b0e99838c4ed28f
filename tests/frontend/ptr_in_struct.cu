//pass
//args: --blockDim=64 --gridDim=4
// A pointer stored in a private struct and loaded back (pointers in memory carry the object
// they point into): each thread writes its own element of A or of B.
struct Out {
  int *dst;
  int n;
};

__global__ void k(int *A, int *B, int c) {
  Out o;
  o.dst = c ? A : B;
  o.n = blockIdx.x * blockDim.x + threadIdx.x;
  o.dst[o.n] = 1;
}
