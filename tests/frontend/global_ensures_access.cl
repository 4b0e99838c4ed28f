//pass
//args: --local_size=64 --num_groups=2
// `__global_ensures` about accesses in a called function holds for every work-item, also those
// that do not call it: here no work-item writes A, so it holds.
void check_no_write(__local int *A) {
  __global_requires(!__write(A));
  __global_ensures(!__write(A));
}

__kernel void global_ensures_access(__local int *A, __global int *out) {
  out[get_global_id(0)] = A[get_local_id(0)];
  if (get_local_id(0) < 16) {
    check_no_write(A);
  }
}
