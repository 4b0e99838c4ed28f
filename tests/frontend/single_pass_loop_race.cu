//xfail:race
//args: --gridDim=[4,4] --blockDim=[8,8] --houdini
//error-lines: 17, 17
// single_pass_loop.cu with ROWS == 4: the tile loops run twice (i == 0, then i == 4), so
// thread (x, y) writes tile row y + 4, which thread (x, y + 4) writes too (and likewise the
// output rows): a write-write race that the pinned reading of the counter must not hide.
#define TILE 8
#define ROWS 4
__global__ void copyTiles(float *out, float *in, int width, int reps) {
  __requires(width == 32);
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  int index = x + width * y;
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i < TILE; i += ROWS)
      tile[threadIdx.y + i][threadIdx.x] = in[index + i * width];
    __syncthreads();
    for (int i = 0; i < TILE; i += ROWS)
      out[index + i * width] = tile[threadIdx.y + i][threadIdx.x];
    __syncthreads();
  }
}
