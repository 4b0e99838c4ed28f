//xfail:divergence
//args: --local_size=16 --num_groups=2
//error-line: 8
// The condition depends on the local id: only half the group reaches the barrier.
__kernel void cond_barrier(__global int *A, int n) {
  int i = get_global_id(0);
  if (get_local_id(0) < 8) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    A[i] = n;
  }
}
