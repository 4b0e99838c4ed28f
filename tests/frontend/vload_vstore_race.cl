//xfail:race
//args: --local_size=64 --num_groups=2
//error-lines: 9, 12
// vload_vstore.cl writing out[4 * i + 4] instead of out[4 * i + 3]: the first element the next
// work-item's vstore4 writes.
__kernel void k(__global float *out, __global const float *in, __global int *out3, __global const int *in3) {
  int i = get_global_id(0);
  float4 v = vload4(i, in);
  vstore4(v * 2.0f, i, out);
  int3 w = vload3(i, in3);
  vstore3(w + 1, i, out3);
  out[4 * i + 4] = v.x;
}
