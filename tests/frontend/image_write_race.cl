//xfail:race
//args: --local_size=[8,8] --num_groups=[4,4]
//error-lines: 8, 8
// image_write.cl writing every texel of a row to the row's first texel: the work-items of
// one row write the same texel (GPUVerify's imagetests/fail2dimagecopy).
__kernel void k(__write_only image2d_t dest, __read_only image2d_t src, sampler_t s) {
  int2 xy = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dest, (int2)(0, xy.y), read_imagef(src, s, xy));
}
