//xfail:race
//args: --blockDim=64 --gridDim=16
//error-lines: 14, 14
// float_values.cu with the element chosen by a float's bits alone: two threads can pick the
// same element of `bits`. The bit cast makes that float's class bit-precise
// (vcgen/src/abstract_values.rs), so the index is exact and the race is found.
__global__ void taps(const float *in, float *out, float *flag, int *bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  acc += in[i] * 0.5f;
  out[i] = acc;
  flag[0] = 1.0f;
  int k = __float_as_int(in[i]) & 1;
  bits[k] = i;
}
