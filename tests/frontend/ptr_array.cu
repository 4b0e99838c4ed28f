//pass
//args: --blockDim=64 --gridDim=1
// A private array of pointers indexed by a number the thread computes: every element a load
// may read holds a pointer into A or B.
__global__ void k(int *A, int *B) {
  int *rows[2];
  rows[0] = A;
  rows[1] = B;
  rows[threadIdx.x % 2][threadIdx.x] = 1;
}
