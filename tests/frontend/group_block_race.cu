//xfail:race
//args: --blockDim=32 --gridDim=4 --houdini
//error-lines: 8, 13
// group_block.cu with blocks of 60 elements, fewer than a group uses: group g's first loop
// writes up to g * 60 + 64, which group g + 1 reads (between groups, no barrier orders them).
__global__ void blocks(float *buf) {
  for (int i = threadIdx.x; i <= 64; i += 32)
    buf[blockIdx.x * 60 + i] = i;
  for (int c = 0; c < 64; c += 16) {
    __syncthreads();
    float v = 0;
    if (threadIdx.x < 16)
      v = buf[blockIdx.x * 60 + c + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 16)
      buf[blockIdx.x * 60 + c + threadIdx.x] = v + 1;
  }
}
