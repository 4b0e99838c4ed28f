//xfail:race
//args: --blockDim=64 --gridDim=16
//error-lines: 15, 15
// float_values.cu with threads writing different float literals to `flag[0]`: the literals
// of an abstracted class are distinct constants, so the values differ and the writes race.
__global__ void taps(const float *in, float *out, float *flag, int *bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  acc += in[i] * 0.5f;
  acc += in[i + 1] * 0.25f;
  acc += in[i + 2] * 0.125f;
  out[i] = acc;
  int k = __float_as_int(in[i]) & 1;
  bits[2 * i + k] = i;
  flag[0] = (threadIdx.x & 1) ? 1.0f : 2.0f;
}
