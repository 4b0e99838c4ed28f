//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 8
// ptr_offset_select.cl with the offset counted in elements rather than bytes.
__kernel void k(__global int *A, __global int *B, int c) {
  __global int *p = (c ? A : B) + get_global_id(0);
  *p = 0;
  __assert(__ptr_offset_bytes(p) == get_global_id(0));
}
