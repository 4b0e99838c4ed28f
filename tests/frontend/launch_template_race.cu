//xfail:race
//error-lines: 8, 10
// launch_template.cu without the first barrier: a thread adds its partner's element before
// the partner has written it.
template <unsigned B> __global__ void reduce(const float *in, float *out) {
  extern __shared__ float s[];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * B + t];
  if (t < B / 2)
    s[t] += s[t + B / 2];
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 12);
  reduce<256><<<64, 256, 256 * sizeof(float)>>>(in, out);
  reduce<64><<<dim3(16), dim3(64), 64 * sizeof(float)>>>(in, out);
  return 0;
}
