//xfail:race
//args: --blockDim=32 --gridDim=2
//error-lines: 10, 10
// struct_param_uniform.cu with the block offset left out: threads of the two blocks with the
// same thread index write one element.
struct shift { int x; int unused; };

__global__ void scale(float *o, shift f) {
  int i = threadIdx.x + f.x;
  o[i] = 2 * o[i];
}
