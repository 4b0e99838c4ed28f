//xfail:race
//error-lines: 8, 8
// hardware_limits.cu with the index wrapped at 512: a block of 1,024 threads, which the
// hardware allows, has two threads writing each element.
__global__ void rotate(int *sum) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x;
  s[t & 511] = t;
  __syncthreads();
  atomicAdd(sum, s[(t + 1) & 1023]);
}
