//xfail:race
//args: --blockDim=[4,4] --gridDim=[2,2] --warp-sync 8
//error-lines: 10, 11
// warp_sync_2d.cu with warps of 8: thread (0, 2) (linear id 8, second warp) reads tile[2][0],
// which thread (2, 0) (linear id 2, first warp) writes: threads of different warps are not
// ordered.
__global__ void transpose(float *A) {
  __shared__ float tile[4][4];
  int x = threadIdx.x, y = threadIdx.y;
  float v = tile[y][x];
  tile[x][y] = v;
  __syncthreads();
  A[(blockIdx.y * 4 + y) * 8 + blockIdx.x * 4 + x] = tile[x][y];
}
