//xfail:race
//args: --blockDim=32 --gridDim=2
//error-lines: 9, 10
// device_shared_local.cu without the barrier: the array is shared by the block (not one copy
// per thread), so the neighbour's read races with the write.
__global__ void flux(float *Q) {
  __device__ __shared__ float s[32];
  int n = threadIdx.x;
  s[n] = Q[blockIdx.x * 32 + n];
  Q[blockIdx.x * 32 + n] = s[(n + 1) % 32];
}
