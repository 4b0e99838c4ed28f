//pass
//args: --local_size=64 --num_groups=4
// `__read`/`__write` inside `__assert` (folded into the assertion, not computed as values):
// the copy reads only q and writes only p, at this work-item's element.
__kernel void copy(__global int *p, __global int *q) {
  p[get_global_id(0)] = q[get_global_id(0)];
  __assert(!__read(p));
  __assert(!__write(q));
  __assert(__implies(__write(p), __write_offset_bytes(p) == get_global_id(0) * 4));
}
