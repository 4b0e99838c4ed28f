//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 14
// bodiless.cl asserting what a bodiless function does not promise: two calls with the same
// argument may return different values, and `fill` may change `t`.

int next(int x);
void fill(int *p);

__kernel void k(__global int *A) {
  int t = 0;
  fill(&t);
  int x = next(t);
  __assert(x == next(t) || t == 0);
  A[get_global_id(0)] = x + t;
}
