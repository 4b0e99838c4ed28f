//pass
//args: --blockDim=32 --gridDim=2
// `__device__ __shared__` on a local array (gpgpu-sim's MaxwellsGPU kernels), which clang-14
// rejects: the array is the block's shared array, as in nvcc (frontend/src/cuda_rewrites.rs).
// Twin: device_shared_local_race.cu.
__global__ void flux(float *Q) {
  __device__ __shared__ float s[32];
  int n = threadIdx.x;
  s[n] = Q[blockIdx.x * 32 + n];
  __syncthreads();
  Q[blockIdx.x * 32 + n] = s[(n + 1) % 32];
}
