//xfail:assertion
//args: --local_size=64 --num_groups=2
//error-line: 14
// A unary barrier invariant about the other work-item (`t != other`, true for every pair of
// distinct work-items) instantiated for work-item 0 would read `0 != 0` if `__other` were
// instantiated too: kivl assumes such an invariant only for the pair it was checked for, so
// the false assertion is reported (it was reported verified before).
__kernel void binv_relational(__global int *out) {
  __local int A[64];
  unsigned t = get_local_id(0);
  A[t] = t;
  __barrier_invariant_1(t != __other_int(t), 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[t] == t + 1);
}
