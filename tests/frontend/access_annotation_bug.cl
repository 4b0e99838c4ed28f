//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 8
// The write to p may be the recorded one, so `!__write(p)` can fail.
__kernel void copy(__global int *p, __global int *q) {
  p[get_global_id(0)] = q[get_global_id(0)];
  __assert(!__read(p));
  __assert(!__write(p));
}
