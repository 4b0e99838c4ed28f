//pass
//args: --local_size=64 --num_groups=4
// An int array also written byte by byte (through a char pointer): the array becomes
// byte-level memory, and each work-item touches only the four bytes of its own int: verified.

__kernel void k(__global int *A) {
  __global char *c = (__global char *)A;
  A[get_global_id(0)] = 0;
  c[4 * get_global_id(0) + 1] = 7;
  c[4 * get_global_id(0) + 3] = c[4 * get_global_id(0)];
}
