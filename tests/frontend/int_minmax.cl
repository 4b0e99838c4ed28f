//pass
//args: --local_size=64 --num_groups=4
// OpenCL's integer `min`/`max` are lane-wise and signed or unsigned as their type (GPUVerify's
// OpenCL/misc/pass/misc5): with both vector arguments, with a scalar second argument, and on
// scalars. `volatile` keeps clang from folding the calls away.
__kernel void k(__global int *out) {
  volatile int4 a = (int4)(1, -2, 3, 0);
  volatile int4 b = (int4)(2, 3, -4, 1);
  int4 lo = min(a, b);
  int4 hi = max(a, 1);
  volatile uint u = 0xffffffffu;
  __assert(lo.x == 1 && lo.y == -2 && lo.z == -4 && lo.w == 0);
  __assert(hi.x == 1 && hi.y == 1 && hi.z == 3 && hi.w == 1);
  __assert(min(u, 7u) == 7u);
  out[get_global_id(0)] = lo.x + hi.w;
}
