//pass
//args: --blockDim=64 --gridDim=1
// Constant memory read by every thread (the twin of constant_write.cu).
__constant__ int coeff[64];

__global__ void k(int *out) {
  out[threadIdx.x] = coeff[threadIdx.x];
}
