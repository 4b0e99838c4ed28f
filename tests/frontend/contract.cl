//pass
//args: --local_size=64 --num_groups=2
// A function's contract is checked on its own for every input its precondition allows, and
// at each call: `__return_val_int()` is the result, `__old_int(x)` a parameter's value.
int halve(int a) {
  __requires(a >= 0 & a < 1000);
  __ensures(__return_val_int() >= 0);
  __ensures(__return_val_int() <= __old_int(a));
  return a / 2;
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = halve(get_local_id(0));
}
