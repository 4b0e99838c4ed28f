//xfail:assertion
//args: --blockDim=64 --gridDim=1
//error-line: 10
// A pointer taken through an integer and back (GPUVerify's miscfail7) points into no object
// kivl knows: the write is reported as an access through an invalid pointer.
__global__ void k(int *H) {
  size_t t = (size_t)H;
  t += sizeof(int);
  int *G = (int *)t;
  G[threadIdx.x - 1] = threadIdx.x;
}
