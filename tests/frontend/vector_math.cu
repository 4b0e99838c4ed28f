//pass
//args: --blockDim=64 --gridDim=4
// The helper-math API of kivl's CUDA header on the vector structs: `make_*` overloads,
// operators with vectors and scalars, `dot`. Whole
// `float4`s are loaded and stored field by field (each field race-checked); integer vector
// arithmetic is exact, so the assertion holds.
__global__ void shade(float4 *out, const float4 *in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 c = in[i];
  float4 v = make_float4(make_float3(c) * 2.0f, dot(c, c)) + make_float4(0.5f);
  out[i] = -v;
  int4 k = make_int4((int)i) + make_int4(1, 2, 3, 4);
  k *= 2;
  __assert(k.w == 2 * (int)i + 8 && k.x == 2 * (int)i + 2);
}
