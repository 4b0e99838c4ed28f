//pass
//args: --local_size=[8,8] --num_groups=[4,4]
// Reads of an image array and of a depth image (texels kivl does not lay out): arbitrary
// values, no race (the images are read-only). Twin: image_array_read_race.cl.
__kernel void k(__read_only image2d_array_t a, __read_only image2d_depth_t d, sampler_t s, __global float *out) {
  int4 c = (int4)(get_global_id(0), get_global_id(1), 0, 0);
  int i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[i] = read_imagef(a, s, c).x + read_imagef(d, s, c.xy);
}
