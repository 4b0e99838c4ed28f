//pass
//args: --local_size=64 --num_groups=2
// `__all(e)`: e holds in both threads; `__exclusive(e)`: not in both at once;
// `__global_assert` in a kernel's first block; `__ptr_offset_bytes` of a pointer.
__kernel void k(__global int *A) {
  __global_assert(__all(get_local_id(0) < get_local_size(0)));
  __assert(__implies(get_group_id(0) == __other_int(get_group_id(0)), __exclusive(get_local_id(0) == 4)));
  __global int *p = A + 3;
  __assert(__ptr_offset_bytes(p) == 12);
  A[get_global_id(0)] = 1;
}
