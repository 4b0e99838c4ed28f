//pass
//args: --local_size=128 --num_groups=4
// OpenCL 2.0's work_group_reduce_add (selected by the built-in it calls): every work-item of
// the group reaches it, and each group's first work-item writes the group's sum. Twin:
// work_group_reduce_divergent.cl.
__kernel void k(__global int *out, __global const int *in) {
  int lid = get_local_id(0);
  int s = work_group_reduce_add(in[get_global_id(0)]);
  if (lid == 0)
    out[get_group_id(0)] = s;
}
