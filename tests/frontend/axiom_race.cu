//xfail:race
//args: --blockDim=64 --gridDim=8
//error-line: 13
// Twin of axiom.cu: the axiom fixes the block, not the thread, so the threads of block 3 all
// write A[0].
__axiom(blockIdx.x == 3);

__global__ void only_block_three(int *A) {
  if (blockIdx.x == 3 && threadIdx.x == 0) {
    A[0] = 1;
  }
  if (blockIdx.x == 3) {
    A[0] = threadIdx.x;
  }
}
