//xfail:race
//args: --local_size=64 --num_groups=4 --houdini
//error-lines: 9, 14
// The specification function writes the element of the next work-item, which that work-item
// writes too: a write-write race between the call's write and the kernel's.
void __spec_fill(__global int *p) {
  __requires(__no_write(p));
  __ensures(__write_implies(p, __write_offset_bytes(p) == (get_global_id(0) + 1) * sizeof(int)));
  __writes_to(p);
}

__kernel void spec_write(__global int *out) {
  __spec_fill(out);
  out[get_global_id(0)] = get_global_id(0);
}
