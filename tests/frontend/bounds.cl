//pass
//args: --local_size=16 --num_groups=2 --check-array-bounds
// --check-array-bounds: the local tile and the private array are indexed inside their sizes.
__kernel void k(__global int *A) {
  __local int tile[16];
  int priv[4];
  unsigned l = get_local_id(0);
  tile[l] = A[get_global_id(0)];
  priv[l % 4] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  A[get_global_id(0)] = tile[15 - l] + priv[l % 4];
}
