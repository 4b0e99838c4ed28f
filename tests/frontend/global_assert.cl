//pass
//args: --local_size=64 --num_groups=2
// GPUVerify's `__global_assert` past a branch: the assertion is about every work-item, also
// those the branch disabled. Here `z` is 7 in all of them.
__kernel void foo(__global int *A) {
  int z = A[0] == 3 ? 7 : 7;
  if (get_local_id(0) == 0) {
    __global_assert(z == 7);
  }
}
