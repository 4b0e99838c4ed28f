//pass
//args: --local_size=64 --num_groups=2
// A barrier inside a branch on work_group_any's result: the result is the same for every
// work-item of the group, so all of them take the branch or none does. work_group_any fences
// no memory, so the read of the neighbour's element needs the barrier. Twin:
// work_group_any_race.cl.
__kernel void k(__global int *out, __global const int *flags) {
  __local int t[64];
  int lid = get_local_id(0);
  t[lid] = flags[get_global_id(0)];
  if (work_group_any(t[lid] != 0)) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[(lid + 1) % 64];
  }
}
