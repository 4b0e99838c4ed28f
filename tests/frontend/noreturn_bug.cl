//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 10
// noreturn.cl where thread 0 calls the function that never returns: reaching the code after it
// (`unreachable` in the IR) is an error, as in GPUVerify.
void fail(__global int *a) __attribute__((noreturn));

__kernel void k(__global int *A) {
  if (get_local_id(0) == 0) {
    fail(A);
  }
  A[get_global_id(0)] = 1;
}
