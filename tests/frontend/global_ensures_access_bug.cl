//xfail:postcondition
//args: --local_size=64 --num_groups=2
//error-line: 9
// Twin of global_ensures_access.cl: the work-items from 16 on write A and do not call
// `check_no_write`, whose `__global_ensures` is about them too, so it fails (it was refused as
// unsupported before, since the access logs are one thread's only).
void check_no_write(__local int *A) {
  __global_requires(__implies(get_local_id(0) < 16, !__write(A)));
  __global_ensures(!__write(A));
}

__kernel void global_ensures_access(__local int *A, __global int *out) {
  if (get_local_id(0) >= 16) {
    A[get_local_id(0)] = 1;
  }
  if (get_local_id(0) < 16) {
    check_no_write(A);
  }
}
