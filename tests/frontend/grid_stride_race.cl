//xfail:race
//args: --local_size=64 --num_groups=16 --houdini
//error-line: 7
// Twin of grid_stride.cl: A[i + 1] is the next work-item's element.
__kernel void scale(__global float *A, unsigned n) {
  for (unsigned i = get_global_id(0); i + 1 < n; i += get_global_size(0))
    A[i + 1] = 2 * A[i];
}
