//pass
//args: --local_size=64 --num_groups=4
// An atomic through a pointer selected from two arrays, whose result decides a branch (the
// guard reads the atomic's result; it used to be recomputed there as an external call, as in
// parboil/histo and GPUVerify's refined_atomic_abstraction/access_in_loop). The plain writes
// touch elements the atomic never does. Twin: atomic_result_branch_race.cl.
__kernel void k(__global unsigned *A, __global unsigned *B, int c) {
  __global unsigned *p = c ? A : B;
  unsigned old = atomic_inc(p);
  if (old < 10)
    B[get_global_id(0) + 1] = old;
}
