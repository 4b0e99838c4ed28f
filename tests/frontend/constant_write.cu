//xfail:assertion
//args: --blockDim=64 --gridDim=1
//error-line: 9
// constant_read.cu the other way round: a write to constant memory is GPUVerify's error
// "possible attempt to modify constant memory", reported at the write.
__constant__ int coeff[64];

__global__ void k(int *in) {
  coeff[threadIdx.x] = in[threadIdx.x];
}
