//xfail:unsupported
//--local_size=64 --num_groups=1
//error-line: 6
// Atomics are not translated yet (issue 18): a located `unsupported` error, exit status 2.
__kernel void count(__global int *c) {
  atomic_add(c, 1);
}
