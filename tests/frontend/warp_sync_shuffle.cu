//pass
//args: --blockDim=64 --gridDim=1 --warp-sync 32
// GPUVerify's warpsync/shuffle: each thread reads its right neighbour within its warp of 32
// (wrapping around), then writes its own element. The read and the write of two threads of
// one warp touch one element, but in different statements, which the warp's lock-step orders
// (`--warp-sync 32`); a read never leaves its warp. Twin: warp_sync_shuffle_race.cu.
__global__ void shuffle(int *A) {
  __shared__ int S[64];
  int t = threadIdx.x;
  int v = S[(t / 32) * 32 + (t + 1) % 32];
  S[t] = v;
  __syncthreads();
  A[t] = S[t];
}
