//pass
//args: --local_size=64 --num_groups=2
// A unary barrier invariant may speak of the other work-item of the pair (`__other_int`); for
// the work-item itself (the instantiation `t`) it is assumed as checked.
__kernel void binv_relational(__global int *out) {
  __local int A[64];
  __local int B[128];
  unsigned t = get_local_id(0);
  A[t] = 2 * t;
  __barrier_invariant_1(A[t] != A[__other_int(t)], t);
  barrier(CLK_LOCAL_MEM_FENCE);
  B[A[t]] = t;
}
