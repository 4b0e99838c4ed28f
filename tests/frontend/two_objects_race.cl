//xfail:race
//args: --local_size=32 --num_groups=4
//error-lines: 13, 13
// two_objects.cl indexing by the local id: work-items of different groups write the same
// element of whichever buffer was chosen.
__kernel void pick(__global int *A, __global int *B, int useA) {
  __global int *p;
  if (useA) {
    p = A;
  } else {
    p = B + 128;
  }
  p[get_local_id(0)] = get_global_id(0);
}
