//xfail:race
//args: --local_size=64 --num_groups=2
//error-lines: 9, 11
// work_group_any.cl without the barrier: work_group_any orders no memory accesses, so the
// write of an element and the neighbour's read of it race.
__kernel void k(__global int *out, __global const int *flags) {
  __local int t[64];
  int lid = get_local_id(0);
  t[lid] = flags[get_global_id(0)];
  if (work_group_any(t[lid] != 0)) {
    out[get_global_id(0)] = t[(lid + 1) % 64];
  }
}
