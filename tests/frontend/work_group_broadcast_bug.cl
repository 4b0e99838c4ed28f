//xfail:assertion
//args: --local_size=64 --num_groups=2
//error-line: 11
// work_group_broadcast.cl asserting the same of work-item 1, which receives work-item 0's
// value, not its own.
__kernel void k(__global int *out, __global const int *in) {
  int lid = get_local_id(0);
  int mine = in[get_global_id(0)];
  int first = work_group_broadcast(mine, 0);
  if (lid == 1)
    __assert(first == mine);
  out[get_global_id(0)] = first;
}
