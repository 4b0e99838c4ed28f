//xfail:race
//args: --blockDim=32 --gridDim=4
//error-lines: 11, 13
// memcpy.cu without the barrier: thread t reads the element of tile that thread t + 1's
// copy writes.
struct pair { int a; int b; };
__global__ void copy(pair *out, const int *in) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  __builtin_memcpy(&tile[2 * t], &in[2 * g], 2 * sizeof(int));
  pair p;
  p.a = tile[(2 * t + 2) % 64];
  p.b = tile[2 * t + 1];
  out[g] = p;
}
