//xfail:assertion
//args: --local_size=16 --num_groups=2
//error-line: 8
// k bytes past A need not be a multiple of 4: an int access there straddles two elements,
// which kivl's element maps cannot represent, and is undefined in OpenCL C.
__kernel void k(__global int *A, unsigned k) {
  __global int *p = (__global int *)((__global char *)A + k);
  p[get_global_id(0)] = 1;
}
