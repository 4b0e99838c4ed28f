//xfail:race
//args: --local_size=[8,8] --num_groups=[4,4]
//error-lines: 9, 9
// image_array_read.cl storing at the index the texel read names: the values are arbitrary,
// so two work-items may write one element.
__kernel void k(__read_only image2d_array_t a, __read_only image2d_depth_t d, sampler_t s, __global float *out) {
  int4 c = (int4)(get_global_id(0), get_global_id(1), 0, 0);
  int i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[read_imagei(a, s, c).x] = read_imagef(d, s, c.xy);
}
