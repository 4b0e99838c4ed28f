//xfail:syntax
//args: --local_size=64 --num_groups=1
//error-line: 6
// A C error is clang's, reported at its line with exit status 2.
__kernel void broken(__global int *A) {
  A[get_local_id(0)] = undeclared;
}
