//xfail:assertion
//args: --local_size=64 --num_groups=2
//error-line: 13
// Instantiated for the pair (0, 0), the binary invariant `t != other` would read `0 != 0`:
// assuming it would make every later check pass. kivl assumes a pair's instance only for
// two distinct work-items, so the false assertion is reported.
__kernel void binv_pair_same(__global int *out) {
  __local int A[64];
  unsigned t = get_local_id(0);
  A[t] = t;
  __barrier_invariant_binary_1(t != __other_int(t), 0, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[t] == t + 1);
}
