//pass
//args: --local_size=64 --num_groups=2
// `__read_permission(T, x)` reads `x` (checked for races like any read), which makes `x` known
// to the next barrier invariant: each odd work-item leaves A[t] unchanged and reads it only
// for the invariant, and no other work-item writes it.
__kernel void binv_read_permission(__global int *out) {
  __local int A[64];
  unsigned t = get_local_id(0);
  A[t] = 1;
  __barrier_invariant_2(A[t] == 1, t, t + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t % 2 == 0) {
    A[t] = A[t] * A[t + 1];
  }
  __read_permission(int, A[t]);
  __barrier_invariant_1(A[t] == 1, t);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[t] == 1);
}
