//xfail:assertion
//args: --local_size=64 --num_groups=16
//error-line: 11
// async_copy.cl with the wait moved after the barrier: at the barrier the copy may still be in
// flight, which is reported there (kivl requires the wait before the next barrier).
#define N 64

__kernel void k(__global float *in, __global float *out) {
  __local float tile[N];
  event_t e = async_work_group_copy(tile, in + N * get_group_id(0), N, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
