//xfail:assertion
//args: --blockDim=64 --gridDim=4
//error-line: 10
// ldg_bitcast.cu asserting that clearing the sign bit keeps the bits: it does not for a
// negative float.
__global__ void __launch_bounds__(64) bits(float *out, const float *__restrict__ in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = __ldg(&in[i]);
  int b = __float_as_int(x);
  __assert((b & 0x7fffffff) == b);
  out[i] = __int_as_float(b & 0x7fffffff);
}
