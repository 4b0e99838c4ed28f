//xfail:race
//args: --local_size=[8,8] --num_groups=[4,4]
//error-line: 9
// image_read.cl storing every texel at the row's first element: the texels are arbitrary, so
// the writes race.
__kernel void k(__read_only image2d_t img, sampler_t s, __global float4 *out) {
  int2 xy = (int2)(get_global_id(0), get_global_id(1));
  int i = get_global_id(1) * get_global_size(0);
  out[i] = read_imagef(img, s, xy);
}
