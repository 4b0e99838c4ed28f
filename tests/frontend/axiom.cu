//pass
//args: --blockDim=64 --gridDim=8
// GPUVerify's `__axiom(e)` at file scope: a precondition of every kernel. Only block 3 runs,
// so only its thread 0 writes A[0].
__axiom(blockIdx.x == 3);

__global__ void only_block_three(int *A) {
  if (blockIdx.x == 3 && threadIdx.x == 0) {
    A[0] = 1;
  }
  if (blockIdx.x != 3) {
    A[0] = threadIdx.x;
  }
}
