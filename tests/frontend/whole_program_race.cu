//xfail:race
//error-lines: 14, 14
// whole_program.cu with each thread scaling its right neighbour's element as well: two
// threads write one element.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(blockDim.x == 256);
  if (i + 1 < n)
    x[i + (i & 1)] = a * x[i];
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
