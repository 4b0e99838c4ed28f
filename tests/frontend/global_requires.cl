//pass
//args: --local_size=64 --num_groups=2
// GPUVerify's `__global_requires` in a called function: the precondition holds for the
// work-items a branch disabled too. Every work-item's `z` is 100, also in the odd ones that do
// not call `check`.
void check(int x) {
  __global_requires(x == 100);
}

__kernel void foo(__global int *A) {
  int z = A[0] > 5 ? 100 : 100;
  if ((get_local_id(0) % 2) == 0) {
    check(z);
  }
}
