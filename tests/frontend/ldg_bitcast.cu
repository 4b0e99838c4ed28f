//pass
//args: --blockDim=64 --gridDim=4
// __ldg reads like a plain load, the bit casts are exact, and __launch_bounds__ and
// __restrict__ are accepted: a float's bits put back into a float and taken out again are the
// same bits. Twin: ldg_bitcast_bug.cu.
__global__ void __launch_bounds__(64) bits(float *out, const float *__restrict__ in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = __ldg(&in[i]);
  int b = __float_as_int(x);
  __assert(__float_as_int(__int_as_float(b)) == b);
  __assert(__float_as_uint(__uint_as_float(7u)) == 7u);
  out[i] = __int_as_float(b & 0x7fffffff);
}
