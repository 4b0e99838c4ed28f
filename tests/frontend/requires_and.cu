//pass
//args: --blockDim=32 --gridDim=2
// A GPUVerify-style precondition with `&&` (clang branches on it; the front end folds the
// branches back into one clause): with both in [0, 100], the sum cannot exceed 200. Twin:
// requires_and_bug.cu.
__global__ void k(int *x, int a, int b) {
  __requires(a <= 100 && b <= 100);
  __requires(a >= 0 && b >= 0);
  __assert(a + b <= 200);
  x[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}
