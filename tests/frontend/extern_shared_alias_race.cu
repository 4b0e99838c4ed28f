//xfail:race
//args: --blockDim=32 --gridDim=1
//error-lines: 12, 13
// Twin of extern_shared_alias.cu without the barrier: thread t reads byte 1 of a[t + 1] through
// `c` while thread t + 1 writes a[t + 1]. (kivl once gave `a` and `c` separate maps and
// verified this kernel.)
#include <cuda.h>

__global__ void k(float *out) {
  extern __shared__ int a[];
  extern __shared__ char c[];
  a[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = c[4 * threadIdx.x + 5];
}
