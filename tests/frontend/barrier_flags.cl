//pass
//args: --local_size=64 --num_groups=4
// OpenCL barrier flags: CLK_LOCAL_MEM_FENCE orders the group's accesses to local memory.
__kernel void k(__local int *p, __global int *out) {
  p[get_local_id(0)] = get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = p[(get_local_id(0) + 1) % get_local_size(0)];
}
