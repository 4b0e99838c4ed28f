//xfail:barrier-invariant
//args: --local_size=64 --num_groups=2
//error-line: 10
// The barrier invariant is false: A[t] is t, not t + 1.
__kernel void binv(__global int *out) {
  __local int A[64];
  unsigned t = get_local_id(0);
  A[t] = t;
  __barrier_invariant_1(A[t] == t + 1, (t + 1) % 64);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[(t + 1) % 64] == (t + 1) % 64 + 1);
}
