//xfail:assertion
//args: --blockDim=64 --gridDim=1
//error-line: 9
// ptr_array.cu without the store of rows[1]: odd threads write through an uninitialised
// pointer ("possible access through a null or undefined pointer").
__global__ void k(int *A, int *B) {
  int *rows[2];
  rows[0] = A;
  rows[threadIdx.x % 2][threadIdx.x] = 1;
}
