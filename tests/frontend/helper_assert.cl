//pass
//args: --local_size=64 --num_groups=4
// An inlined helper with a precondition, and an assertion on its result.
int twice(int x) {
  __requires(x >= 0);
  return x + x;
}

__kernel void helper(__global int *A) {
  int t = get_local_id(0);
  int y = twice(t);
  __assert(y >= t);
  A[get_global_id(0)] = y;
}
