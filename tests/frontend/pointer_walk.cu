//pass
//args: --houdini --blockDim=32 --gridDim=1
// MC_SingleAsianOptionP's path walk: a pointer advanced by a whole number of floats in a loop.
// The front end checks each access's byte offset for alignment; the loop invariant that keeps
// it a multiple of 4 is inferred (rule "aligned-counter").
__global__ void walk(float *out, const float *in, unsigned n, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = in + i;
  float s = 0;
  for (unsigned t = 0; t < m; t++, p += n) {
    s += *p;
  }
  out[i] = s;
}
