//pass
//args: --local_size=64 --num_groups=2
// A binary barrier invariant instantiated for a pair that is one work-item twice, (0, 0),
// tells nothing (it was checked only for pairs of distinct work-items); the unary invariant
// still proves the assertion.
__kernel void binv_pair_same(__global int *out) {
  __local int A[64];
  unsigned t = get_local_id(0);
  A[t] = t;
  __barrier_invariant_1(A[t] == t, t);
  __barrier_invariant_binary_1(t != __other_int(t), 0, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[t] == t);
}
