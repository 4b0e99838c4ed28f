//pass
//args: --blockDim=32 --gridDim=4
// A grid-wide barrier (cooperative_groups' grid_group::sync()) orders the accesses of all the
// grid's threads: each thread reads its right neighbour's element, which may belong to the next
// block, before any thread overwrites it.
#include <cuda.h>
using namespace cooperative_groups;

__global__ void shift_left(int *A) {
  grid_group g = this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = A[i + 1];
  g.sync();
  A[i] = right;
}
