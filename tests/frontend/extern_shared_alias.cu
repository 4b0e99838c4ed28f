//pass
//args: --blockDim=32 --gridDim=1
// CUDA's unsized `extern __shared__` arrays all start at the dynamic shared memory's address:
// `a` and `c` are two names of the same bytes. The barrier orders each thread's write of a[t]
// before the other threads read its bytes through `c`.
#include <cuda.h>

__global__ void k(float *out) {
  extern __shared__ int a[];
  extern __shared__ char c[];
  a[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = c[4 * threadIdx.x + 5];
}
