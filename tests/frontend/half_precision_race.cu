//xfail:race
//args: --blockDim=64 --gridDim=4
//error-lines: 11, 12
// half_precision.cu writing to h[i] and h[i + 1]: thread i + 1 writes the element thread i
// writes second.
#include <cuda_fp16.h>

__global__ void scale(const __half2 *v, __half *h, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 x = v[i];
  h[i] = __low2half(x) * __float2half(a);
  h[i + 1] = __high2half(x) * __float2half(a);
}
