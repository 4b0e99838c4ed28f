//pass
//args: --blockDim=32 --gridDim=2
// A struct passed by value to a kernel holds the same value in every thread (the host passes
// one), so an index offset by one of its fields is still each thread's own (issue 41). Twin:
// struct_param_uniform_race.cu.
struct shift { int x; int unused; };

__global__ void scale(float *o, shift f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + f.x;
  o[i] = 2 * o[i];
}
