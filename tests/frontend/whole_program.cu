//pass
// A whole CUDA program, host code and all (issue 39): only the kernel is verified, with the
// sizes its launch gives ((n + 255) / 256 blocks of 256 threads for n = 2^20), no size flags.
// Device code may call assert() (<cassert>) and printf. Twin: whole_program_race.cu.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(blockDim.x == 256);
  if (i < n)
    x[i] = a * x[i];
  if (i == 0)
    printf("scaled %d elements\n", n);
}

int main() {
  int n = 1 << 20;
  std::vector<float> h(n, 1.0f);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  cudaDeviceSynchronize();
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(d);
  return 0;
}
