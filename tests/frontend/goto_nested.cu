//pass
//args: --blockDim=32 --gridDim=1 --houdini
//needs-inference
// A `goto` out of two nested loops to the end of the loop around them, taken by some threads
// only (GPUVerify's CUDA/misc/pass/misc5 and predication/test2): the predicated program's own
// invariant about where a thread that took the `goto` has been must also hold at the middle
// loop's head, or it fails on entry to the inner loop although nothing is wrong.
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
    out[threadIdx.x] = n;
  }
}
