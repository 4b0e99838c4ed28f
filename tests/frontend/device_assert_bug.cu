//xfail:assertion
//error-line: 7
// device_assert.cu with the assertion stricter than the launch: thread 64 of a block fails it.
#include <cassert>

__global__ void k(int *out) {
  assert(threadIdx.x < 64);
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

int main() {
  int *d;
  cudaMalloc(&d, 1024 * sizeof(int));
  k<<<8, 128>>>(d);
  return cudaDeviceSynchronize() != cudaSuccess;
}
