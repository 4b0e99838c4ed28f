//pass
//args: --blockDim=64 --gridDim=1
// A warp scan with __shfl_up (CUDA samples' shfl_scan), declared as the kernels written for
// GPUVerify declare it. A shuffle gives an arbitrary value (kivl models no warps); it is no
// barrier, so the __syncthreads before the neighbour's read is needed. Twin: shuffle_scan_race.cu.
__device__ int __shfl_up(int, int, int);

__global__ void scan(int *data) {
  __shared__ int sums[64];
  int t = threadIdx.x;
  int value = data[t];
  for (int i = 1; i <= 16; i *= 2) {
    int n = __shfl_up(value, i, 32);
    if ((t & 31) >= i)
      value += n;
  }
  sums[t] = value;
  __syncthreads();
  data[t] = sums[t ^ 1] + __shfl_xor(value, 1);
}
