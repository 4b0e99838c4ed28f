//xfail:unsupported
//args: --blockDim=64 --gridDim=1
//error-line: 11
// A warp-level reduction step ordered by __syncwarp. kivl does not model warps yet, so the
// call is a located `unsupported` error naming it, never a call without effect (a __syncwarp
// that a lane of its mask does not reach would be a bug kivl could not see).
__global__ void k(int *out) {
  __shared__ int t[64];
  int i = threadIdx.x;
  t[i] = i;
  __syncwarp();
  out[i] = t[i ^ 1];
}
