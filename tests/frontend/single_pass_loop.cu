//pass
//args: --gridDim=[4,4] --blockDim=[8,8] --houdini
//needs-inference
// The shape of CUDA's transpose samples (symbooglix/gpu CUDA50/6_Advanced/transpose): the tile
// loop `for (i = 0; i < TILE; i += ROWS)` with TILE == ROWS runs once, with i == 0, so each
// thread writes its own element of the tile and of the output. Inference reads the counter at
// its start value (rule `access-offset` through `pinned.rs`); the outer loop keeps the fact.
#define TILE 8
#define ROWS 8
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
