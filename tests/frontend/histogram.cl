//pass
//args: --local_size=64 --num_groups=4
// An atomic histogram over local and global memory: two atomics on one bin never race.
__kernel void histogram(__global const uint *data, __global uint *bins) {
  __local uint local_bins[16];
  uint v = data[get_global_id(0)] % 16;
  atomic_inc(&local_bins[v]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) < 16) {
    atomic_add(&bins[get_local_id(0)], local_bins[get_local_id(0)]);
  }
}
