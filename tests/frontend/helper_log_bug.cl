//xfail:precondition
//args: --local_size=64 --num_groups=4
//error-line: 14
// helper_log.cl with a write before the call: the precondition `!__write(p)` fails at the
// call.
void put(__global int *p, int i) {
  __requires(!__write(p));
  __requires(i == get_global_id(0));
  p[i] = 1;
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = 0;
  put(A, get_global_id(0));
}
