//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 11
// The atomic of atomic_null_check.cl without the comparison with null: when `i != 0` it goes
// through the null pointer (an atomic through null once made the front end panic).

__kernel void k(__global int *A, __global int *B, int i) {
  __global int *a = 0;
  if (i == 0)
    a = A;
  int old = atomic_inc(a);
  B[get_global_id(0)] = old;
}
