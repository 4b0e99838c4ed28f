//xfail:unsupported
//args: --local_size=64 --num_groups=4
//error-line: 10
// A bodiless function given a pointer to global memory: which elements it reads and writes is
// unknown, so races cannot be checked: a located `unsupported` error, never a verdict.

void touch(__global int *p);

__kernel void k(__global int *A) {
  touch(A);
}
