//pass
//args: --local_size=16 --num_groups=2
// A barrier under a condition every work-item of a group evaluates alike (a parameter).
__kernel void cond_barrier(__global int *A, int n) {
  int i = get_global_id(0);
  if (n > 4) {
    A[i] = n;
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
