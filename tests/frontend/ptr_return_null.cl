//pass
//args: --local_size=32 --num_groups=4
// An inlined helper returns either a pointer into A or null; the kernel writes through the
// result only when it is not null. Twin: ptr_return_null_bug.cl.
__global int *block_or_null(__global int *A, int n) {
  if (n > 0)
    return A + get_group_id(0) * get_local_size(0);
  return 0;
}

__kernel void fill(__global int *A, int n) {
  __global int *mine = block_or_null(A, n);
  if (mine)
    mine[get_local_id(0)] = get_local_id(0);
}
