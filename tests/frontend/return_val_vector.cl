//pass
//args: --local_size=64 --num_groups=2
// `__return_val_int4()` in a postcondition (GPUVerify's OpenCL/vectortests/vectorreturn): lane
// by lane the returned vector, at every return of the function.
int4 next(int4 v) {
  __ensures(__return_val_int4().x == v.x + 1);
  __ensures(__return_val_int4().w == v.w + 1);
  if (v.y > 0) {
    return v + 1;
  }
  return (int4)(v.x + 1, 0, 0, v.w + 1);
}

__kernel void k(__global int4 *a) {
  int4 b = next(a[get_global_id(0)]);
  a[get_global_id(0)] = b;
}
