//pass
//args: --local_size=64 --num_groups=4 --houdini
// A GPUVerify specification function: `__spec_fill` stands for code kivl does not see, which
// writes `p` only at the work-item's own element. Its writes are logged like any other, so the
// kernel's own write to that element does not race.
void __spec_fill(__global int *p) {
  __requires(__no_write(p));
  __ensures(__write_implies(p, __write_offset_bytes(p) == get_global_id(0) * sizeof(int)));
  __writes_to(p);
}

__kernel void spec_write(__global int *out) {
  __spec_fill(out);
  out[get_global_id(0)] = 1;
}
