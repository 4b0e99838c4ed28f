//xfail:race
//args: --blockDim=32 --gridDim=4
//error-line: 13
// Twin of grid_sync.cu with a block barrier: __syncthreads() does not order threads of
// different blocks, so the last thread of block 0 reads A[32] while thread 0 of block 1 may
// already be writing it.
#include <cuda.h>

__global__ void shift_left(int *A) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = A[i + 1];
  __syncthreads();
  A[i] = right;
}
