//pass
//args: --blockDim=32 --gridDim=2
// A struct of fields of different types returned by value from a device function (its fields
// exact, so the assertion holds), stored whole into shared memory and copied after the
// barrier by the neighbouring thread.
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
  Sample mine = sample(t, w[blockIdx.x * 32 + t]);
  __assert(mine.id == t && mine.tag == (t & 7));
  tile[t] = mine;
  __syncthreads();
  Sample s = tile[(t + 1) % 32];
  out[blockIdx.x * 32 + t] = s;
}
