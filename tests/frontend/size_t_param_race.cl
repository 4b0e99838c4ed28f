//xfail:race
//args: --local_size=64 --num_groups=4
//error-lines: 9, 9
// size_t_param.cl where every work-item below the bound writes its id to the last element: the
// parameter is an ordinary number, and the write-write race is found.
__kernel void k(__global int *a, size_t n, ptrdiff_t d) {
  size_t i = get_global_id(0);
  if (i < n) {
    a[n - 1] = i + d;
  }
}
