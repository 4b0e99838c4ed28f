//xfail:race
//args: --blockDim=16 --gridDim=4 --houdini
//error-line: 9
// Twin of grid_stride.cu with the classic mistake: the index advances by the block size
// instead of the grid size, so thread 0 of block 1 starts at the element thread 0 of block 0
// reaches in its second iteration: a race between blocks.
__global__ void scale(float *A, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
    A[i] = 2 * A[i];
}
