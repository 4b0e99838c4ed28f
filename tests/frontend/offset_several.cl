//pass
//args: --local_size=16 --num_groups=4
// An access annotation of a pointer into one of two objects is the annotation of the object it
// points into (GPUVerify's OpenCL/misc/pass/misc9).
__kernel void foo(__local int *p, __local int *q, int x) {
  __local int *r = x ? p : q;
  r[get_local_id(0)] = 1;
  __assert(__implies(__write(r), __write_offset_bytes(r) == get_local_id(0) * 4));
}
