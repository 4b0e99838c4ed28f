//pass
//args: --local_size=64 --num_groups=2
// work_group_broadcast gives every work-item the value of work-item 0, so the assertion that
// work-item 0 received its own value holds. Twin: work_group_broadcast_bug.cl.
__kernel void k(__global int *out, __global const int *in) {
  int lid = get_local_id(0);
  int mine = in[get_global_id(0)];
  int first = work_group_broadcast(mine, 0);
  if (lid == 0)
    __assert(first == mine);
  out[get_global_id(0)] = first;
}
