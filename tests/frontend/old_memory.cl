//pass
//args: --local_size=64 --num_groups=2
// `__old_int` of memory (GPUVerify's specification_tests/pass/value_related_spec): the value
// at the function's entry, both where `bump` is inlined and where it is checked on its own.
void bump(__global int *p) {
  __ensures(p[get_global_id(0)] == __old_int(p[get_global_id(0)]) + 1);
  p[get_global_id(0)] = p[get_global_id(0)] + 1;
}

__kernel void k(__global int *a) {
  a[get_global_id(0)] = 5;
  bump(a);
  __assert(a[get_global_id(0)] == 6);
}
