//xfail:invariant-maintained
//args: --local_size=[8,8] --num_groups=[4,4]
//error-line: 8
// image_write_loop.cl with the annotation's coordinates swapped: the column of a written
// texel is the work-item's x, not its y.
__kernel void k(__write_only image2d_t out, uint4 v, unsigned n) {
  for (unsigned y = get_global_id(1);
       __invariant(__write_implies(out, (__write_offset_bytes(out) / sizeof(uint4)) % CL_DEVICE_IMAGE2D_MAX_WIDTH == get_global_id(1))),
       __invariant(y % get_global_size(1) == get_global_id(1)),
       y < n; y += get_global_size(1))
    write_imageui(out, (int2)(get_global_id(0), y), v);
}
