//pass
//args: --local_size=64 --num_groups=4
// A pointer that is null unless `i == 0` (then it is A), used only after a comparison with
// null: no access goes through null. Twin: null_check_bug.cl.

__kernel void k(__global int *A, int i) {
  __global int *a = 0;
  if (i == 0)
    a = A;
  if (a != 0)
    a[get_global_id(0)] = 1;
  if (a > (__global int *)0)
    a[get_global_id(0)] = 2;
}
