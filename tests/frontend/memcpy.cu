//pass
//args: --blockDim=32 --gridDim=4
// memcpy/memmove/memset (issue 18): __builtin_memcpy of a slice into __shared__ memory, a
// struct assignment and private copies, as element-wise reads and writes; the barrier orders
// the copy before the neighbour's read.
struct pair { int a; int b; };
__global__ void copy(pair *out, const int *in, pair *zs, int v) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  __builtin_memcpy(&tile[2 * t], &in[2 * g], 2 * sizeof(int));
  __syncthreads();
  pair p;
  p.a = tile[(2 * t + 2) % 64];
  p.b = tile[2 * t + 1];
  out[g] = p;
  pair z;
  __builtin_memset(&z, 0, sizeof(pair));
  __assert(z.b == 0);
  zs[g] = z;
  int a[3] = {v, v + 1, v + 2};
  int b[3];
  __builtin_memcpy(b, a, sizeof(a));
  __builtin_memmove(&a[1], &a[0], 2 * sizeof(int));
  __assert(a[1] == v && a[2] == v + 1 && b[2] == v + 2);
  short s[4];
  __builtin_memset(s, 0xab, sizeof(s));
  __assert(s[3] == (short)0xabab);
  int c[4] = {1, 2, 3, 4};
  __assert(c[2] == 3);
}
