//xfail:race
//args: --local_size=64 --num_groups=16 --houdini
//error-lines: 12, 15
// async_copy_loop.cl without the second barrier: the next tile's copy races with the reads of
// this tile by the other work-items.
#define N 64

__kernel void k(__global float *in, __global float *out, unsigned tiles) {
  __local float tile[N];
  float acc = 0;
  for (unsigned t = 0; t < tiles; t++) {
    event_t e = async_work_group_copy(tile, in + N * (t * get_num_groups(0) + get_group_id(0)), N, 0);
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += tile[get_local_id(0)];
  }
  out[get_global_id(0)] = acc;
}
