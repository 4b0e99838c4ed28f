//xfail:race
//args: --local_size=64 --num_groups=2
//error-lines: 9, 11
// work_group_barrier.cl with the barrier fencing only global memory: the local array's write
// and the neighbour's read race.
__kernel void k(__global int *out) {
  __local int t[64];
  int lid = get_local_id(0);
  t[lid] = lid;
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = t[(lid + 1) % 64];
}
