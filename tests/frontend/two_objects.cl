//pass
//args: --local_size=32 --num_groups=4
// A pointer into one of two buffers, chosen by a parameter: accesses through it are checked
// against each buffer it may point into.
__kernel void pick(__global int *A, __global int *B, int useA) {
  __global int *p;
  if (useA) {
    p = A;
  } else {
    p = B + 128;
  }
  p[get_global_id(0)] = get_global_id(0);
}
