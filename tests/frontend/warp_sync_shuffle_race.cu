//xfail:race
//args: --blockDim=64 --gridDim=1
//error-lines: 9, 10
// warp_sync_shuffle.cu without `--warp-sync`: threads run in no particular order, so thread
// 0's write of S[0] races with thread 31's read of it.
__global__ void shuffle(int *A) {
  __shared__ int S[64];
  int t = threadIdx.x;
  int v = S[(t / 32) * 32 + (t + 1) % 32];
  S[t] = v;
  __syncthreads();
  A[t] = S[t];
}
