//pass
// assert() from <cassert> in device code is an assertion: with the launch's 128 threads per
// block it holds. Twin: device_assert_bug.cu.
#include <cassert>

__global__ void k(int *out) {
  assert(threadIdx.x < 128);
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

int main() {
  int *d;
  cudaMalloc(&d, 1024 * sizeof(int));
  k<<<8, 128>>>(d);
  return cudaDeviceSynchronize() != cudaSuccess;
}
