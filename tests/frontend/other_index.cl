//pass
//args: --local_size=64 --num_groups=2 --abstraction equality
// A specification that reads a shared array at the other thread's index (AMD SDK's
// BinarySearch encodes a sorted input with `__assume(A[__other_int(i)] < A[i])`): the read
// is made at the other thread's `i` in the two-thread program. It made kivl fail with
// "unknown function `__other`". Twin: other_index_race.cl.
__kernel void k(__global uint *out, __global const uint *A) {
  unsigned int i = 16 * get_global_id(0);
  __assume(__implies(__other_int(i) < i, A[__other_int(i)] < A[i]));
  out[get_global_id(0)] = A[i];
}
