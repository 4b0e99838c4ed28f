//xfail:postcondition
//args: --local_size=64 --num_groups=2
//error-line: 8
// The kernel only passes even numbers, but the contract allows a = 1, where a / 2 is 0: the
// function checked on its own breaks its postcondition.
int halve(int a) {
  __requires(a >= 0 && a < 1000);
  __ensures(__implies(a > 0, __return_val_int() > 0));
  return a / 2;
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = halve(2 * get_local_id(0));
}
