//xfail:assertion
//args: --local_size=64 --num_groups=4 --houdini
//error-line: 14
// The specification function may write any element of `out`, its own work-item's included:
// what the kernel wrote there before the call is not known after it.
void __spec_touch(__global int *q) {
  __ensures(__write_implies(q, __write_offset_bytes(q) == get_global_id(0) * sizeof(int)));
  __writes_to(q);
}

__kernel void spec_value(__global int *out, __global int *tmp) {
  out[get_global_id(0)] = 1;
  __spec_touch(out);
  __assert(out[get_global_id(0)] == 1);
}
