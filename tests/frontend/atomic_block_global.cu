//xfail:unsupported
//args: --blockDim=64 --gridDim=4
//error-line: 8
// A block-scoped atomic on global memory: atomic only among the threads of one block, so two
// blocks' updates of one element would race. kivl does not check scoped races yet: a located
// `unsupported` error, never a verdict that ignores the scope.
__global__ void count(unsigned *total) {
  atomicAdd_block(total, 1u);
}
