//xfail:race
//args: --blockDim=32 --gridDim=1
//error-lines: 9, 10
// extern_shared_sized.cu without the barrier: thread 31 - t's read of shared[t] races with
// thread t's write.
__global__ void rev(int *values) {
  extern __shared__ int shared[32];
  unsigned t = threadIdx.x;
  shared[t] = values[t];
  values[t] = shared[31 - t];
}
