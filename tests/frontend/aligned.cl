//pass
//args: --local_size=16 --num_groups=2
// Twin of misaligned.cl: 4 * k bytes past A is a whole number of ints.
__kernel void k(__global int *A, unsigned k) {
  __global int *p = (__global int *)((__global char *)A + 4 * k);
  p[get_global_id(0)] = 1;
}
