//pass
//args: --blockDim=64 --gridDim=16
// Float values that only meet float arithmetic (uninterpreted) and equality get an
// uninterpreted sort in the solver (vcgen/src/abstract_values.rs); the proof is unchanged:
// each thread writes its own element, and every thread writes the same literal to `flag[0]`
// (a benign write: equal values). `bits` reads a float's bits, so that class stays
// bit-precise, and its index arithmetic is exact.
__global__ void taps(const float *in, float *out, float *flag, int *bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  acc += in[i] * 0.5f;
  acc += in[i + 1] * 0.25f;
  acc += in[i + 2] * 0.125f;
  out[i] = acc;
  flag[0] = 1.0f;
  int k = __float_as_int(in[i]) & 1;
  bits[2 * i + k] = i;
}
