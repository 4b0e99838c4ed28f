//pass
//args: --local_size=64 --num_groups=4
// `__ptr_offset_bytes` of a pointer into one of two arrays (rodinia heartwall, parboil sad):
// the offset is the same whichever array it points into. Twin: ptr_offset_select_bug.cl.
__kernel void k(__global int *A, __global int *B, int c) {
  __global int *p = (c ? A : B) + get_global_id(0);
  *p = 0;
  __assert(__ptr_offset_bytes(p) == get_global_id(0) * sizeof(int));
  __assert(__write_implies(B, __write_offset(B) == __ptr_offset_bytes(p)));
}
