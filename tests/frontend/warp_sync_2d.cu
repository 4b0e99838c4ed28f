//pass
//args: --blockDim=[4,4] --gridDim=[2,2] --warp-sync 16
// GPUVerify's warpsync/2d: thread (x, y) reads tile[y][x] and writes tile[x][y]. The 4x4
// block is one warp of 16 (linear id x + 4y), so the read of one thread and the write of
// another are ordered by the warp's lock-step. Twin: warp_sync_2d_race.cu (warps of 8).
__global__ void transpose(float *A) {
  __shared__ float tile[4][4];
  int x = threadIdx.x, y = threadIdx.y;
  float v = tile[y][x];
  tile[x][y] = v;
  __syncthreads();
  A[(blockIdx.y * 4 + y) * 8 + blockIdx.x * 4 + x] = tile[x][y];
}
