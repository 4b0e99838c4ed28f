//xfail:assertion
//args: --local_size=64 --num_groups=4
//error-line: 11
// bytes_endian.cl asserting the big-endian order (the first byte of 0x01020304 is 1): the
// assertion fails.

__kernel void k(__global int *out) {
  int x[2];
  x[0] = 0x01020304;
  char *c = (char *)x;
  __assert(c[0] == 1);
  out[get_global_id(0)] = x[0];
}
