//xfail:race
//args: --blockDim=[8,8] --gridDim=[2,2]
//error-lines: 9, 12
// tile2d.cu without __syncthreads: a thread reads the tile element another thread writes.
__global__ void transpose(float *out, const float *in, int width) {
  __shared__ float tile[8][8];
  unsigned x = blockIdx.x * 8 + threadIdx.x;
  unsigned y = blockIdx.y * 8 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * 16 + x];
  unsigned tx = blockIdx.y * 8 + threadIdx.x;
  unsigned ty = blockIdx.x * 8 + threadIdx.y;
  out[ty * 16 + tx] = tile[threadIdx.x][threadIdx.y];
}
