//xfail:assertion
//args: --blockDim=32 --gridDim=1
//error-line: 8
// int_intrinsics.cu's `ffs` with an off-by-one: __ffs counts bit positions from 1, so the
// lowest set bit of 1 << t is found at t + 1, not t.
__global__ void ffs(unsigned *A) {
  unsigned t = threadIdx.x;
  __assert(__ffs(1 << t) == t && __ffs(0) == 0);
  A[t] = t;
}
