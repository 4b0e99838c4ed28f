//xfail:barrier-invariant
//args: --local_size=64 --num_groups=2
//error-line: 11
// The binary barrier invariant is false: work-items 2k and 2k + 1 store the same value.
__kernel void binv_binary(__global int *out) {
  __local int A[64];
  __local int B[256];
  unsigned t = get_local_id(0);
  A[t] = t / 2;
  __barrier_invariant_binary_1(A[t] != A[__other_int(t)], t, __other_int(t));
  barrier(CLK_LOCAL_MEM_FENCE);
  B[A[t]] = t;
}
