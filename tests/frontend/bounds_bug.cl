//xfail:assertion
//args: --local_size=16 --num_groups=2 --check-array-bounds
//error-line: 11
// tile[16 - l] is one past the end for work-item 0.
__kernel void k(__global int *A) {
  __local int tile[16];
  unsigned l = get_local_id(0);
  tile[l] = A[get_global_id(0)];
  A[get_global_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  A[get_global_id(0)] = tile[16 - l];
}
