//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 9
// uninterpreted.cl assuming that an uninterpreted function gives equal results on different
// arguments.
int __uninterpreted_function_hash(int);

__kernel void k(__global int *A) {
  __assert(__uninterpreted_function_hash(get_local_id(0)) == __uninterpreted_function_hash(0));
  A[get_global_id(0)] = 0;
}
