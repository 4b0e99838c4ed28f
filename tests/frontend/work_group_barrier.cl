//pass
//args: --local_size=64 --num_groups=2
// OpenCL 2.0's work_group_barrier with a local fence orders each work-item's write of its
// element before its neighbour's read. Twin: work_group_barrier_race.cl.
__kernel void k(__global int *out) {
  __local int t[64];
  int lid = get_local_id(0);
  t[lid] = lid;
  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  out[get_global_id(0)] = t[(lid + 1) % 64];
}
