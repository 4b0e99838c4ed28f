//pass
//args: --local_size=64 --num_groups=16
// async_work_group_copy into local memory, waited for and followed by a barrier, then a
// strided copy back out: verified (the copy is made by one work-item of the group).
#define N 64

__kernel void k(__global float *in, __global float *out) {
  __local float tile[N];
  event_t e = async_work_group_copy(tile, in + N * get_group_id(0), N, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[get_local_id(0)] = 2 * tile[get_local_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + get_group_id(0), tile, N, get_num_groups(0), 0);
  wait_group_events(1, &e);
}
