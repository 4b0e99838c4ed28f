//pass
//args: --blockDim=64 --gridDim=1
// A number made a pointer points into no object, and only 0 is null: the write below runs
// only if c is 0, when the pointer is null, so it never runs.
__global__ void k(unsigned c) {
  int *p = (int *)(size_t)c;
  if (c == 0 && p != 0)
    p[threadIdx.x] = 1;
}
