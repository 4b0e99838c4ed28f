//pass
//args: --blockDim=64 --gridDim=4
// <cuda_fp16.h>: a __half is 2 bytes and a __half2 two of them, so each thread reading its
// own pair and writing its two halves touches only its own elements; values are abstract.
// Twin: half_precision_race.cu.
#include <cuda_fp16.h>

__global__ void scale(const __half2 *v, __half *h, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 x = v[i];
  h[2 * i] = __low2half(x) * __float2half(a);
  h[2 * i + 1] = __high2half(x) * __float2half(a);
}
