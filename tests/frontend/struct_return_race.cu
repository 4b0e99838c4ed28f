//xfail:race
//args: --blockDim=32 --gridDim=2
//error-lines: 19, 21
// struct_return.cu without the barrier: the neighbour's struct is read while it is written.
struct Sample {
  int id;
  float weight;
  short tag;
};

__device__ Sample sample(int id, float w) {
  Sample s = {id, w * 0.5f, (short)(id & 7)};
  return s;
}

__global__ void gather(Sample *out, const float *w) {
  __shared__ Sample tile[32];
  int t = threadIdx.x;
  tile[t] = sample(t, w[blockIdx.x * 32 + t]);
  // (no barrier)
  Sample s = tile[(t + 1) % 32];
  out[blockIdx.x * 32 + t] = s;
}
