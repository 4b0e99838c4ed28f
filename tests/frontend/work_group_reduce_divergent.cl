//xfail:divergence
//args: --local_size=128 --num_groups=4
//error-line: 10
// work_group_reduce.cl with the collective reached only by the first 64 work-items of each
// group of 128: barrier divergence (a collective is a barrier of the whole group).
__kernel void k(__global int *out, __global const int *in) {
  int lid = get_local_id(0);
  int s = 0;
  if (lid < 64)
    s = work_group_reduce_add(in[get_global_id(0)]);
  if (lid == 0)
    out[get_group_id(0)] = s;
}
