//xfail:assertion
//args: --local_size=64 --num_groups=2
//error-line: 9
// Twin of global_assert.cl: only work-item 0 reaches the assertion, but it is about every
// work-item, and the others' `z` is not 0.
__kernel void foo(__global int *A) {
  int z = get_local_id(0);
  if (get_local_id(0) == 0) {
    __global_assert(z == 0);
  }
}
