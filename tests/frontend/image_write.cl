//pass
//args: --local_size=[8,8] --num_groups=[4,4]
// OpenCL images as memory (translate/images.rs): each work-item copies its own texel from a
// read-only image to a write-only one, so the writes never meet (GPUVerify's
// imagetests/test2dimagecopy). Twin: image_write_race.cl.
__kernel void k(__write_only image2d_t dest, __read_only image2d_t src, sampler_t s) {
  int2 xy = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dest, xy, read_imagef(src, s, xy));
}
