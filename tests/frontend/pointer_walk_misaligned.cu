//xfail:assertion
//args: --houdini --blockDim=32 --gridDim=1
//error-line: 11
// Twin of pointer_walk.cu: the pointer moves by n bytes, not n floats, so for an odd n the
// second read straddles two floats. Inference must not hide the failing alignment check.
__global__ void walk(float *out, const float *in, unsigned n, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = in + i;
  float s = 0;
  for (unsigned t = 0; t < m; t++, p = (const float *)((const char *)p + n)) {
    s += *p;
  }
  out[i] = s;
}
