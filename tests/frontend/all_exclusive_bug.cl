//xfail:assertion
//args: --local_size=64 --num_groups=2
//error-line: 8
// Two threads of different groups can both have local id 4: `__exclusive` fails without the
// same-group guard. The offset of A + 3 in bytes is 12.
__kernel void k(__global int *A) {
  __global_assert(__all(get_local_id(0) < get_local_size(0)));
  __assert(__exclusive(get_local_id(0) == 4));
  A[get_global_id(0)] = 1;
}
