//xfail:assertion
//args: --local_size=32 --num_groups=4
//error-line: 13
// ptr_return_null.cl without the test: when `n <= 0` the write goes through null.
__global int *block_or_null(__global int *A, int n) {
  if (n > 0)
    return A + get_group_id(0) * get_local_size(0);
  return 0;
}

__kernel void fill(__global int *A, int n) {
  __global int *mine = block_or_null(A, n);
  mine[get_local_id(0)] = get_local_id(0);
}
