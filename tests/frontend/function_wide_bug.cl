//xfail:unsupported
//args: --local_size=32 --num_groups=4
//error-line: 9
// A function-wide invariant must come after the function's last statement (GPUVerify's
// rule): here a loop follows it.
__kernel void k(__global int *A, unsigned m) {
  unsigned n = get_global_size(0);
  unsigned tid = get_global_id(0);
  __function_wide_invariant(__write_implies(A, (__write_offset_bytes(A) / sizeof(int)) % n == tid));
  for (int i = 0; i < m; i++) {
    A[tid + i * n] = i;
  }
}
