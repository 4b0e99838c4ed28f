//pass
//args: --local_size=16 --num_groups=2
// Access annotations computed by the code, not in a specification (GPUVerify's
// OpenCL/misc/pass/misc9 and misc10): passed to a function, stored in a local. Their value is
// arbitrary there, so the kernel verifies whatever it is.
void record(int);

__kernel void k(__local int *p, __local int *q, int x) {
  __local int *r = x ? p : q;
  r[get_local_id(0)] = 1;
  record(__read_offset_bytes(r));
  volatile int z = __write_offset_bytes(r);
  volatile int w = __write(r);
}
