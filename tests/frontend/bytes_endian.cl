//pass
//args: --local_size=64 --num_groups=4
// Byte-level memory is little-endian: the first byte of the int 0x01020304 is 4, and an int
// read over bytes written one by one puts the first byte lowest: verified.

__kernel void k(__global int *out) {
  int x[2];
  x[0] = 0x01020304;
  char *c = (char *)x;
  __assert(c[0] == 4);
  __assert(c[3] == 1);
  c[4] = 1; c[5] = 0; c[6] = 0; c[7] = 2;
  __assert(x[1] == 0x02000001);
  out[get_global_id(0)] = x[1];
}
