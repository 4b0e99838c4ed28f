//pass
//args: --blockDim=32 --gridDim=1
// A sized `extern __shared__` array (CUDA20/bitonicsort), which clang-14 rejects: read as a
// plain shared array of 32 elements, as nvcc and GPUVerify do (frontend/src/cuda_rewrites.rs).
// Twin: extern_shared_sized_race.cu.
__global__ void rev(int *values) {
  extern __shared__ int shared[32];
  unsigned t = threadIdx.x;
  shared[t] = values[t];
  __syncthreads();
  values[t] = shared[31 - t];
}
