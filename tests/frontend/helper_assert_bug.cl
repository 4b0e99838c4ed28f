//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 13
// The assertion fails for work-item 0 (0 > 0 is false).
int twice(int x) {
  __requires(x >= 0);
  return x + x;
}

__kernel void helper(__global int *A) {
  int t = get_local_id(0);
  int y = twice(t);
  __assert(y > t);
  A[get_global_id(0)] = y;
}
