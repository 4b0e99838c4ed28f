//xfail:race
//args: --blockDim=64 --gridDim=1
//error-lines: 17, 18
// shuffle_scan.cu without the __syncthreads: a shuffle synchronises no memory accesses, so the
// neighbour's write of sums races with the read.
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
  data[t] = sums[t ^ 1] + __shfl_xor(value, 1);
}
