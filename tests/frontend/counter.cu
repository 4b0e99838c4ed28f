//pass
//args: --blockDim=64 --gridDim=8
// Stream compaction with a global counter: the old values atomicAdd(counter, 1) returns to two
// threads differ, so the threads write distinct slots.
__global__ void compact(const int *in, int *out, unsigned *counter) {
  int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (x > 0) {
    unsigned slot = atomicAdd(counter, 1);
    out[slot] = x;
  }
}
