//xfail:race
//args: --local_size=64 --num_groups=2 --abstraction equality
//error-lines: 9, 10
// other_index.cl with `A` written: thread t reads `A` at the other thread's `i` (in the
// assumption), the other thread writes its own `A[i]`: a read-write race, which is found only
// if the read is logged at the other thread's index, not at t's own.
__kernel void k(__global uint *A) {
  unsigned int i = get_global_id(0);
  __assume(__implies(__other_int(i) < i, A[__other_int(i)] <= A[i]));
  A[i] = 0;
}
