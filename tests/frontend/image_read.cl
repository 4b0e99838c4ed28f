//pass
//args: --local_size=[8,8] --num_groups=[4,4]
// OpenCL image reads (with a sampler built from constant flags, or passed in): each read is an
// arbitrary texel; images are never written here, so reading them cannot race.
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

__kernel void k(__read_only image2d_t img, sampler_t s, __global float4 *out) {
  int2 xy = (int2)(get_global_id(0), get_global_id(1));
  int i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[i] = read_imagef(img, nearest, xy) + read_imagef(img, s, xy);
}
