//xfail:race
//args: --local_size=64 --num_groups=4
//error-lines: 8, 10
// atomic_result_branch.cl with the plain write at B[0], the element the atomic updates when
// `c` is 0: an atomic and a plain access of one element race.
__kernel void k(__global unsigned *A, __global unsigned *B, int c) {
  __global unsigned *p = c ? A : B;
  unsigned old = atomic_inc(p);
  if (old < 10)
    B[get_global_id(0)] = old;
}
