//pass
//args: --local_size=64 --num_groups=4
// A call of a function that never returns, on a path no thread takes: verified.
void fail(__global int *a) __attribute__((noreturn));

__kernel void k(__global int *A) {
  if (get_local_id(0) >= get_local_size(0)) {
    fail(A);
  }
  A[get_global_id(0)] = 1;
}
