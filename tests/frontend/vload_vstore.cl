//pass
//args: --local_size=64 --num_groups=2
// vloadN/vstoreN read and write the N elements at p + offset * N, one access per element; a
// vload3 reads 3 elements at offset * 3. Every work-item touches only its own elements. Twin:
// vload_vstore_race.cl.
__kernel void k(__global float *out, __global const float *in, __global int *out3, __global const int *in3) {
  int i = get_global_id(0);
  float4 v = vload4(i, in);
  vstore4(v * 2.0f, i, out);
  int3 w = vload3(i, in3);
  vstore3(w + 1, i, out3);
  out[4 * i + 3] = v.x;
}
