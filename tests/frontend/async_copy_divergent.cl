//xfail:assertion
//args: --local_size=64 --num_groups=16
//error-line: 12
// async_copy.cl with the copy made by half of the group only: every work-item of a group must
// make the call, with the same arguments.
#define N 64

__kernel void k(__global float *in, __global float *out) {
  __local float tile[N];
  event_t e = 0;
  if (get_local_id(0) < 32)
    e = async_work_group_copy(tile, in + N * get_group_id(0), N, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
