//pass
//args: --blockDim=[8,8] --gridDim=[2,2]
// CUDA, 2-D blocks (GPUVerify's bracketed sizes): a tile transposed through shared memory.
__global__ void transpose(float *out, const float *in, int width) {
  __shared__ float tile[8][8];
  unsigned x = blockIdx.x * 8 + threadIdx.x;
  unsigned y = blockIdx.y * 8 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * 16 + x];
  __syncthreads();
  unsigned tx = blockIdx.y * 8 + threadIdx.x;
  unsigned ty = blockIdx.x * 8 + threadIdx.y;
  out[ty * 16 + tx] = tile[threadIdx.x][threadIdx.y];
}
