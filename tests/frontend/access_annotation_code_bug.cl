//xfail:assertion
//args: --local_size=16 --num_groups=2
//error-line: 11
// access_annotation_code.cl asserting a value of the offset computed by the code: it is
// arbitrary (in GPUVerify the offset of some write, 4 times a local id), so the assertion
// may fail.
__kernel void k(__local int *p, __local int *q, int x) {
  __local int *r = x ? p : q;
  r[get_local_id(0)] = 1;
  volatile int z = __write_offset_bytes(r);
  __assert(z == 0);
}
