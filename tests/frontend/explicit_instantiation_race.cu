//xfail:race
//args: --blockDim=16 --gridDim=4
//error-lines: 10, 11
// explicit_instantiation.cu without the barrier: the reversed read of S races with the write.
template <int BLOCK> __global__ void tile(float *A);
template void tile<16>(float *A);

template <int BLOCK> __global__ void tile(float *A) {
  __shared__ float S[BLOCK];
  S[threadIdx.x] = A[blockIdx.x * BLOCK + threadIdx.x];
  A[blockIdx.x * BLOCK + threadIdx.x] = S[BLOCK - 1 - threadIdx.x];
}
