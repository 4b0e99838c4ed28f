//xfail:race
//args: --blockDim=64 --gridDim=1
//error-lines: 17, 17
// texture_fetch.cu with the fetched index used for the shared write: two threads may fetch
// the same index, so their writes of S race (a fetch is an arbitrary value).
texture<float, cudaTextureType2DLayered> layers;
texture<unsigned char, 2, cudaReadModeNormalizedFloat> image;
texture<int, 1> indices;

__device__ float bilinear(const texture<unsigned char, 2, cudaReadModeNormalizedFloat> t, float u) {
  return tex2D(t, u, 0.5f) + tex2DLod(t, u, 0.5f, 0.0f);
}

__global__ void fetch(float *out) {
  __shared__ float S[64];
  int t = threadIdx.x;
  S[tex1Dfetch(indices, t) & 63] = tex2DLayered(layers, t, 0.5f, 1) + bilinear(image, t);
  __syncthreads();
  out[t] = S[(t + 1) & 63];
}
