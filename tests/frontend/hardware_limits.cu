//pass
// No launch and no size flags: the sizes are symbolic within what CUDA hardware allows (at
// most 1,024 threads per block), so the thread index wrapped at 1,024 is each thread's own.
// Twin: hardware_limits_race.cu.
__global__ void rotate(int *sum) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x;
  s[t & 1023] = t;
  __syncthreads();
  atomicAdd(sum, s[(t + 1) & 1023]);
}
