//pass
//args: --blockDim=64 --gridDim=2
// A file-scope variable without `__device__` used by a kernel (clang-14 rejects it; GPUVerify's
// CUDA/atomics/pointer_add relies on it): one object in global memory, shared by every
// thread, here only added to atomically and read.
unsigned total;
int table[4];

__global__ void k(int *out) {
  atomicAdd(&total, 1u);
  out[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x % 4];
}
