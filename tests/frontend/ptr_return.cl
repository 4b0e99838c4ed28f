//pass
//args: --local_size=32 --num_groups=4
// An inlined helper returns a pointer into the group's block of A; each work-item writes
// its own element through it.
__global int *block_of(__global int *A) {
  return A + get_group_id(0) * get_local_size(0);
}

__kernel void fill(__global int *A) {
  __global int *mine = block_of(A);
  mine[get_local_id(0)] = get_local_id(0);
}
