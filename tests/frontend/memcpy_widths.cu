//xfail:race
//args: --blockDim=32 --gridDim=1
//error-lines: 7, 9
// A memcpy between objects whose accesses have different element widths (ints and shorts):
// both become byte-level memory; the copy reads shorts that other threads write: a race.
__global__ void copy(int *out, short *in) {
  in[threadIdx.x] = 1;
  out[threadIdx.x] = 0;
  __builtin_memcpy(&out[threadIdx.x], &in[2 * threadIdx.x], sizeof(int));
}
