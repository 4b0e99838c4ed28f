//pass
//args: --local_size=64 --num_groups=4
// A kernel parameter of type `size_t` (which OpenCL 1.2 and clang reject and GPUVerify
// accepts): an unsigned int on spir, here the bound of the work-items that write.
__kernel void k(__global int *a, size_t n, ptrdiff_t d) {
  size_t i = get_global_id(0);
  if (i < n) {
    a[i] = d;
  }
}
