//xfail:precondition
//args: --local_size=64 --num_groups=4
//error-line: 13
// helper_assert.cl calling the helper with t - 1, which is -1 for work-item 0: its
// __requires fails, reported at the call as GPUVerify does.
int twice(int x) {
  __requires(x >= 0);
  return x + x;
}

__kernel void helper(__global int *A) {
  int t = get_local_id(0);
  int y = twice(t - 1);
  A[get_global_id(0)] = y;
}
