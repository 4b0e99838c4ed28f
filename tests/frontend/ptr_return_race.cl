//xfail:race
//args: --local_size=32 --num_groups=4
//error-lines: 12, 12
// ptr_return.cl with a block that ignores the group: work-items of different groups write
// the same elements with the same ids but different values.
__global int *block_of(__global int *A) {
  return A;
}

__kernel void fill(__global int *A) {
  __global int *mine = block_of(A);
  mine[get_local_id(0)] = get_global_id(0);
}
