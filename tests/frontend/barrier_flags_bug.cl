//xfail:race
//args: --local_size=64 --num_groups=4
//error-line: 9
// barrier_flags.cl with `barrier(0)`, which fences no memory (as GPUVerify reads it), and with
// flags computed at run time, which kivl over-approximates by no fence.
__kernel void k(__local int *p, __global int *out, int flags) {
  p[get_local_id(0)] = get_global_id(0);
  barrier(0);
  out[get_global_id(0)] = p[(get_local_id(0) + 1) % get_local_size(0)];
  barrier(flags);
  p[get_local_id(0)] = 0;
}
