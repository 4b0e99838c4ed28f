//pass
//args: --blockDim=64 --gridDim=4
// A block-scoped atomic on __shared__ memory (a block histogram) is atomic for every thread
// that can see the memory; the plain write after the barrier does not race with it. The
// system-scoped atomic on global memory is atomic for every thread. Twin: atomic_block_shared_race.cu.
__global__ void hist(unsigned *bins, const unsigned char *data) {
  __shared__ unsigned h[16];
  int i = threadIdx.x;
  if (i < 16)
    h[i] = 0;
  __syncthreads();
  atomicAdd_block(&h[data[blockIdx.x * 64 + i] & 15], 1u);
  __syncthreads();
  if (i < 16)
    atomicAdd_system(&bins[i], h[i]);
}
