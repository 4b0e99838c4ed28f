//pass
//args: --blockDim=16 --gridDim=4
// An explicit instantiation of a kernel template without `__global__` (CUDA samples'
// matrixMul), which nvcc accepts and clang-14 rejects: kivl adds the `__global__`
// (frontend/src/cuda_rewrites.rs). Twin: explicit_instantiation_race.cu.
template <int BLOCK> __global__ void tile(float *A);
template void tile<16>(float *A);

template <int BLOCK> __global__ void tile(float *A) {
  __shared__ float S[BLOCK];
  S[threadIdx.x] = A[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  A[blockIdx.x * BLOCK + threadIdx.x] = S[BLOCK - 1 - threadIdx.x];
}
