//xfail:race
//args: --local_size=64 --num_groups=4 --houdini
//error-lines: 10, 10
// reduce.cl without the barrier in the loop: a thread reads tmp[tid + s] while its owner adds.
__kernel void reduce(__global int *out, __local int *tmp) {
  int tid = get_local_id(0);
  tmp[tid] = tid;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (tid < s) tmp[tid] += tmp[tid + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid == 0) out[get_group_id(0)] = tmp[0];
}
