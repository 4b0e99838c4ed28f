//xfail:invariant-maintained
//args: --local_size=32 --num_groups=4
//error-line: 14
// The recorded write is at tid, not tid + 1 (modulo n): the invariant is not maintained.
__kernel void k(__global int *A) {
  unsigned n = get_global_size(0);
  unsigned tid = get_global_id(0);
  for (int i = 0; __invariant(i >= 0), i < 8; i++) {
    A[tid + i * n] = i;
  }
  for (int j = 0; __invariant(j >= 0), j < 8; j++) {
    A[tid + j * n] += j;
  }
  __function_wide_invariant(__write_implies(A, (__write_offset_bytes(A) / sizeof(int)) % n == tid + 1));
  __function_wide_invariant(__read_implies(A, (__read_offset_bytes(A) / sizeof(int)) % n == tid + 1));
}
