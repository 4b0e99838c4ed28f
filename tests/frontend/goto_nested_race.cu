//xfail:race
//args: --blockDim=32 --gridDim=1 --houdini
//error-lines: 20, 20
// goto_nested.cu where two threads write one element after the `goto` (the race must still be
// found through the nested loops).
__device__ int more(void);

__global__ void k(int *out) {
  int n = 0;
  while (more()) {
    while (more()) {
      while (more()) {
        if (more()) {
          goto next;
        }
        n++;
      }
    }
  next:
    out[threadIdx.x / 2] = n;
  }
}
