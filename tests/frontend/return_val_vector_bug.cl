//xfail:postcondition
//args: --local_size=64 --num_groups=2
//error-line: 7
// return_val_vector.cl where the second return leaves lane w as it was: the postcondition
// about that lane fails.
int4 next(int4 v) {
  __ensures(__return_val_int4().w == v.w + 1);
  if (v.y > 0) {
    return v + 1;
  }
  return (int4)(v.x + 1, 0, 0, v.w);
}

__kernel void k(__global int4 *a) {
  int4 b = next(a[get_global_id(0)]);
  a[get_global_id(0)] = b;
}
