//xfail:race
//args: --blockDim=64 --gridDim=4
//error-lines: 12, 14
// atomic_block_shared.cu without the barrier after the atomics: a thread's plain read of a
// bin races with another thread's atomic update of it.
__global__ void hist(unsigned *bins, const unsigned char *data) {
  __shared__ unsigned h[16];
  int i = threadIdx.x;
  if (i < 16)
    h[i] = 0;
  __syncthreads();
  atomicAdd_block(&h[data[blockIdx.x * 64 + i] & 15], 1u);
  if (i < 16)
    atomicAdd_system(&bins[i], h[i]);
}
