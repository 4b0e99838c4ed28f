//pass
//args: --local_size=64 --num_groups=2
// A binary barrier invariant (GPUVerify's __barrier_invariant_binary_1) relates two
// work-items: after the barrier the elements of A of any two work-items of a group differ, so
// the writes to B at those elements do not race. The pair (t, __other_int(t)) instantiates it
// for the two work-items the verifier considers.
__kernel void binv_binary(__global int *out) {
  __local int A[64];
  __local int B[256];
  unsigned t = get_local_id(0);
  A[t] = 3 * t + 1;
  __barrier_invariant_binary_1(A[t] != A[__other_int(t)], t, __other_int(t));
  barrier(CLK_LOCAL_MEM_FENCE);
  B[A[t]] = t;
}
