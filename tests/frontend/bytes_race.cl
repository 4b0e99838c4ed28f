//xfail:race
//args: --local_size=64 --num_groups=4
//error-lines: 9, 10
// bytes.cl with the byte written at offset 4 instead of 1: that is the first byte of the next
// work-item's int, which it writes as a whole.

__kernel void k(__global int *A) {
  __global char *c = (__global char *)A;
  A[get_global_id(0)] = 0;
  c[4 * get_global_id(0) + 4] = 7;
  c[4 * get_global_id(0) + 3] = c[4 * get_global_id(0)];
}
