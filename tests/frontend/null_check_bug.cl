//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 11
// null_check.cl without the comparison: when `i != 0` the write goes through null, which is
// reported at the access ("possible access through a null or undefined pointer").

__kernel void k(__global int *A, int i) {
  __global int *a = 0;
  if (i == 0)
    a = A;
  a[get_global_id(0)] = 1;
}
