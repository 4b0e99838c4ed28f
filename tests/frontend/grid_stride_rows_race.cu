//xfail:race
//args: --gridDim=4 --blockDim=[16,3] --houdini
//error-lines: 10, 10
// grid_stride_rows.cu with `pos <= n`: thread 0 of group 0 in row y also writes column n, which
// is column 0 of row y + 1, written by thread (0, y + 1) of group 0 with another value.
__global__ void rows(float *out, unsigned n) {
  __requires(n == 1024);
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned pos = tid; pos <= n; pos += blockDim.x * gridDim.x)
    out[threadIdx.y * n + pos] = pos;
}
