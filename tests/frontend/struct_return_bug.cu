//xfail:assertion
//args: --blockDim=32 --gridDim=2
//error-lines: 19
// struct_return.cu with a wrong claim about the returned struct's `tag` field (it is
// `id & 7`, not `id & 3`): the fields of a struct returned by value are exact.
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
  Sample mine = sample(threadIdx.x, w[blockIdx.x * 32 + threadIdx.x]);
  __assert(mine.tag == (threadIdx.x & 3));
  out[blockIdx.x * 32 + threadIdx.x] = mine;
}
