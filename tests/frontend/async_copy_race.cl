//xfail:race
//args: --local_size=64 --num_groups=16
//error-lines: 10, 12
// async_copy.cl without the barrier after wait_group_events: the copy was made by some other
// work-item of the group, so reading the copied element races with it.
#define N 64

__kernel void k(__global float *in, __global float *out) {
  __local float tile[N];
  event_t e = async_work_group_copy(tile, in + N * get_group_id(0), N, 0);
  wait_group_events(1, &e);
  tile[get_local_id(0)] = 2 * tile[get_local_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + get_group_id(0), tile, N, get_num_groups(0), 0);
  wait_group_events(1, &e);
}
