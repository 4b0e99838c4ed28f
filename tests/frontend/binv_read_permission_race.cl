//xfail:race
//args: --local_size=64 --num_groups=2
//error-lines: 15, 17
// The read for the barrier invariant is a read like any other: odd work-item t reads A[t - 1],
// which even work-item t - 1 writes (with a new value: an unchanged one would be a benign pair)
// in the same barrier interval.
__kernel void binv_read_permission(__global int *out) {
  __local int A[64];
  unsigned t = get_local_id(0);
  A[t] = 1;
  __barrier_invariant_2(A[t] == 1, t, t + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  unsigned n = t % 2 == 0 ? t : t - 1;
  if (t % 2 == 0) {
    A[t] = A[t] * A[t + 1] + 1;
  }
  __read_permission(int, A[n]);
  __barrier_invariant_1(A[t] == 1, t);
  barrier(CLK_LOCAL_MEM_FENCE);
}
