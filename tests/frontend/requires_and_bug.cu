//xfail:assertion
//args: --blockDim=32 --gridDim=2
//error-line: 8
// requires_and.cu with `||` for `&&`: one bound alone does not bound the sum.
__global__ void k(int *x, int a, int b) {
  __requires(a <= 100 || b <= 100);
  __requires(a >= 0 && b >= 0);
  __assert(a + b <= 200);
  x[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}
