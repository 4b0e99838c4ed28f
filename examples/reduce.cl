// A tree reduction in OpenCL: each work-group sums its work-items' values in __local memory,
// halving the number of active work-items after each barrier.
//
//   kivl verify --local_size=64 --num_groups=4 examples/reduce.cl
//
// Delete the barrier inside the loop to see kivl report the race at the line of `tmp[tid] +=`.
__kernel void reduce(__global const int *in, __global int *out, __local int *tmp) {
  unsigned tid = get_local_id(0);
  tmp[tid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (tid < s) {
      tmp[tid] += tmp[tid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) {
    out[get_group_id(0)] = tmp[0];
  }
}
