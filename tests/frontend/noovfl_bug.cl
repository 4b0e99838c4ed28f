//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 8
// noovfl.cl with a plain addition, which may wrap.
__kernel void k(__global unsigned *A, unsigned x, unsigned y, unsigned z) {
  __requires(__add_noovfl(x, y));
  unsigned s = A[get_global_id(0)] + y;
  __assert((s >= y) & (x + y >= x));
  A[get_global_id(0)] = s;
}
