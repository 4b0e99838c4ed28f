//pass
//args: --blockDim=32 --gridDim=4 --houdini
//needs-inference
// C++AMP's BinomialOptions: each group works in its own block of a global buffer,
// `buf[blockIdx.x * 80 + c + threadIdx.x]`. Two groups' offsets are told apart by the block
// bounds with the local id inside them, `blockIdx.x * 80 <= off < blockIdx.x * 80 + 80` (rule
// access-group-block, GPUVerify's `accessBreak`), not with it subtracted. Twin:
// group_block_race.cu.
__global__ void blocks(float *buf) {
  for (int i = threadIdx.x; i <= 64; i += 32)
    buf[blockIdx.x * 80 + i] = i;
  for (int c = 0; c < 64; c += 16) {
    __syncthreads();
    float v = 0;
    if (threadIdx.x < 16)
      v = buf[blockIdx.x * 80 + c + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 16)
      buf[blockIdx.x * 80 + c + threadIdx.x] = v + 1;
  }
}
