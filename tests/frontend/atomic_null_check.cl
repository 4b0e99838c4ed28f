//pass
//args: --local_size=64 --num_groups=4
// An atomic through a pointer that is null unless `i == 0`, done only after a comparison with
// null: no access goes through null. Twin: atomic_null_check_bug.cl.

__kernel void k(__global int *A, int i) {
  __global int *a = 0;
  if (i == 0)
    a = A;
  if (a != 0)
    atomic_inc(a);
}
