//xfail:race
//args: --blockDim=64 --gridDim=4
//error-lines: 11, 13
// vector_math.cu where each thread also writes the `.w` field of its neighbour's `float4`:
// the neighbour's whole-struct store writes that field too. The store of a whole `float4` is
// four field writes, each race-checked.
__global__ void shade(float4 *out, const float4 *in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 c = in[i];
  float4 v = make_float4(make_float3(c) * 2.0f, dot(c, c)) + make_float4(0.5f);
  out[i] = -v;
  if (i > 0)
    out[i - 1].w = c.x;
}
