// A whole CUDA program: out[i] is the mean of in[i] and in[i + 1]. Each block stages its
// elements, and the first element of the next block, in shared memory.
// The racy twin of smooth.cu: the __syncthreads() is missing.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BLOCK 256

__global__ void smooth(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 1];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  tile[t] = i < n ? in[i] : 0.0f;
  if (t == BLOCK - 1)
    tile[BLOCK] = i + 1 < n ? in[i + 1] : 0.0f;
  if (i < n)
    out[i] = (tile[t] + tile[t + 1]) / 2;
}

int main() {
  int n = 1 << 20;
  std::vector<float> h(n);
  for (int k = 0; k < n; k++)
    h[k] = k % 7;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  smooth<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
  cudaMemcpy(h.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
