//pass
//args: --blockDim=64 --gridDim=1
// Texture fetches are reads of read-only memory (headers/cuda.h): arbitrary values, never a
// race. A texture passed by value is a handle (llvm.nvvm.texsurf.handle); a layered texture, a
// level-of-detail fetch and a normalized-float read of bytes. Twin: texture_fetch_race.cu.
texture<float, cudaTextureType2DLayered> layers;
texture<unsigned char, 2, cudaReadModeNormalizedFloat> image;
texture<int, 1> indices;

__device__ float bilinear(const texture<unsigned char, 2, cudaReadModeNormalizedFloat> t, float u) {
  return tex2D(t, u, 0.5f) + tex2DLod(t, u, 0.5f, 0.0f);
}

__global__ void fetch(float *out) {
  __shared__ float S[64];
  int t = threadIdx.x;
  S[t] = tex2DLayered(layers, t, 0.5f, 1) + bilinear(image, t);
  __syncthreads();
  out[t] = S[(t + 1) & 63] + tex1Dfetch(indices, t);
}
