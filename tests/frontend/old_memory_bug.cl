//xfail:postcondition
//args: --local_size=64 --num_groups=2
//error-line: 7
// old_memory.cl where `bump` adds 2: its postcondition, about the value at its entry, fails
// (where it is inlined and where it is checked on its own).
void bump(__global int *p) {
  __ensures(p[get_global_id(0)] == __old_int(p[get_global_id(0)]) + 1);
  p[get_global_id(0)] = p[get_global_id(0)] + 2;
}

__kernel void k(__global int *a) {
  a[get_global_id(0)] = 5;
  bump(a);
}
