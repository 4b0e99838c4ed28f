//xfail:precondition
//args: --local_size=64 --num_groups=2
//error-line: 13
// Twin of global_requires.cl: the odd work-items' `z` is 50. They do not call `check`, but
// its `__global_requires` is about them too, so the call fails.
void check(int x) {
  __global_requires(x == 100);
}

__kernel void foo(__global int *A) {
  int z = (get_local_id(0) % 2) == 0 ? 100 : 50;
  if ((get_local_id(0) % 2) == 0) {
    check(z);
  }
}
