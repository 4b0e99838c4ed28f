//xfail:race
//args: --local_size=64 --num_groups=4 -DMUTATION
//error-lines: 9, 14
// histogram.cl without the barrier (compiled with -DMUTATION): the plain read of a local bin
// races with the atomic increments of other threads.
__kernel void histogram(__global const uint *data, __global uint *bins) {
  __local uint local_bins[16];
  uint v = data[get_global_id(0)] % 16;
  atomic_inc(&local_bins[v]);
#ifndef MUTATION
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  if (get_local_id(0) < 16) {
    atomic_add(&bins[get_local_id(0)], local_bins[get_local_id(0)]);
  }
}
