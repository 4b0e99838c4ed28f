//pass
//args: --local_size=64 --num_groups=2
// A barrier invariant (GPUVerify's __barrier_invariant_1) lets each work-item read its right
// neighbour's element after the barrier and know its value.
__kernel void binv(__global int *out) {
  __local int A[64];
  unsigned t = get_local_id(0);
  A[t] = t;
  __barrier_invariant_1(A[t] == t, (t + 1) % 64);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[(t + 1) % 64] == (t + 1) % 64);
}
