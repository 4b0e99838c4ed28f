//pass
//args: --local_size=64 --num_groups=4
// GPUVerify's non-overflowing additions: `__add_noovfl_unsigned_int` assumes its sum does not
// wrap, and the predicate `__add_noovfl(…)` says so of a sum (of up to four terms).
__kernel void k(__global unsigned *A, unsigned x, unsigned y, unsigned z) {
  __requires(__add_noovfl(x, y));
  unsigned s = __add_noovfl_unsigned_int(A[get_global_id(0)], y);
  __assert((s >= y) & (x + y >= x));
  A[get_global_id(0)] = s;
}
