//xfail:unsupported
//args: --local_size=64 --num_groups=2
//error-line: 8
// An OpenCL 2.0 sub-group reduction (selected by the built-in it calls). kivl does not model
// sub-groups yet: a located `unsupported` error naming the function, never a call without
// effect. Its group-level twin: work_group_reduce.cl.
__kernel void k(__global int *out, __global const int *in) {
  int s = sub_group_reduce_add(in[get_global_id(0)]);
  out[get_global_id(0)] = s;
}
