//xfail:assertion
//args: --local_size=16 --num_groups=4
//error-line: 9
// Twin of offset_several.cl: the offset is in bytes, not elements, so the assertion fails for
// every work-item but the first.
__kernel void foo(__local int *p, __local int *q, int x) {
  __local int *r = x ? p : q;
  r[get_local_id(0)] = 1;
  __assert(__implies(__write(r), __write_offset_bytes(r) == get_local_id(0)));
}
