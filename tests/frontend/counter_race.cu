//xfail:race
//args: --blockDim=64 --gridDim=8 -DMUTATION
//error-lines: 13, 13
// counter.cu adding 0 instead of 1 (compiled with -DMUTATION): every thread gets the same slot.
__global__ void compact(const int *in, int *out, unsigned *counter) {
  int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (x > 0) {
#ifdef MUTATION
    unsigned slot = atomicAdd(counter, 0);
#else
    unsigned slot = atomicAdd(counter, 1);
#endif
    out[slot] = x;
  }
}
