//xfail:divergence
//args: --blockDim=32 --gridDim=4
//error-line: 14
// Twin of grid_sync.cu: only the even blocks reach the grid-wide barrier, which every thread
// of the grid must reach (divergence between blocks, though each block agrees with itself).
#include <cuda.h>
using namespace cooperative_groups;

__global__ void shift_left(int *A) {
  grid_group g = this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x % 2 == 0) {
    int right = A[i + 1];
    g.sync();
    A[i] = right;
  }
}
