//xfail:invariant-maintained
//args: --local_size=64 --num_groups=1
//error-line: 8
// The invariant i <= 10 is not maintained when the loop runs to 11.
__kernel void count(__global int *A) {
  int t = get_local_id(0);
  int i = 0;
  while (__invariant(i <= 10), i < 11) {
    i = i + 1;
  }
  A[t] = i;
}
