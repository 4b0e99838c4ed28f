//pass
//args: --local_size=64 --num_groups=1
// A loop invariant in GPUVerify's style, written first in the loop's condition.
__kernel void count(__global int *A) {
  int t = get_local_id(0);
  int i = 0;
  while (__invariant(i <= 10), i < 10) {
    i = i + 1;
  }
  __assert(i == 10);
  A[t] = i;
}
