//pass
//args: --blockDim=16 --gridDim=4 --houdini
// issue 22: the CUDA grid-stride loop: each thread takes the elements congruent to its global
// index modulo the grid's size (`blockDim.x * gridDim.x`). No invariants are written:
// inference (on by default) finds them (rule `grid-stride`).
__global__ void scale(float *A, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    A[i] = 2 * A[i];
}
