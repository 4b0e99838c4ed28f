//pass
//args: --local_size=64 --num_groups=4 --houdini
// A specification function that writes `q` (at the work-item's own element) leaves the other
// objects' values as they were.
void __spec_touch(__global int *q) {
  __ensures(__write_implies(q, __write_offset_bytes(q) == get_global_id(0) * sizeof(int)));
  __writes_to(q);
}

__kernel void spec_value(__global int *out, __global int *tmp) {
  out[get_global_id(0)] = 1;
  __spec_touch(tmp);
  __assert(out[get_global_id(0)] == 1);
}
