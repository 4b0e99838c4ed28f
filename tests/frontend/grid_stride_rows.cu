//pass
//args: --gridDim=4 --blockDim=[16,3] --houdini
//needs-inference
// The shape of quasirandomGenerator (symbooglix/gpu CUDA50/4_Finance): each row threadIdx.y
// of `out` is filled by a grid-stride loop over its columns. The residue of the written offset
// modulo the grid's size is the thread's global index once the row's start `threadIdx.y * n`
// (a thread id times a uniform variable) is subtracted (rule `grid-stride`), and the guard
// keeps the column below n (rule `access-counter-range`).
__global__ void rows(float *out, unsigned n) {
  __requires(n == 1024);
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned pos = tid; pos < n; pos += blockDim.x * gridDim.x)
    out[threadIdx.y * n + pos] = pos;
}
