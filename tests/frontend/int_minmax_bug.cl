//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 12
// int_minmax.cl expecting the signed `min` of a lane to be the unsigned one: -4 is the
// smaller of 3 and -4 as an `int`, not 3.
__kernel void k(__global int *out) {
  volatile int4 a = (int4)(1, -2, 3, 0);
  volatile int4 b = (int4)(2, 3, -4, 1);
  int4 lo = min(a, b);
  int4 hi = max(a, 1);
  __assert(lo.x == 1 && lo.y == -2 && lo.w == 0);
  __assert(lo.z == 3);
  out[get_global_id(0)] = lo.x + hi.w;
}
