//pass
//args: --blockDim=32 --gridDim=1
// CUDA's integer intrinsics are exact (headers/cuda.h): facts about __ffs, __clz, __popc,
// __brev, __byte_perm, __umulhi, abs and the others that hold for every thread and every input
// value (one kernel per intrinsic keeps each check small). Twin: int_intrinsics_bug.cu.
__global__ void ffs(unsigned *A) {
  unsigned t = threadIdx.x;
  __assert(__ffs(1 << t) == t + 1 && __ffs(0) == 0);
  A[t] = t;
}

__global__ void clz(unsigned *A) {
  unsigned t = threadIdx.x;
  __assert(__clz(1 << t) == 31 - t && __clz(0) == 32 && __clzll(1ll << 40) == 23);
  A[t] = t;
}

__global__ void popc(unsigned *A) {
  unsigned t = threadIdx.x;
  __assert(__popc((1u << t) - 1u) == t && __popc(0xffffffffu) == 32);
  A[t] = t;
}

__global__ void brev(unsigned *A) {
  unsigned x = A[threadIdx.x];
  __assert(__brev(__brev(x)) == x && __brev(1u) == 0x80000000u);
  A[threadIdx.x] = __brev(x);
}

__global__ void byte_perm(unsigned *A) {
  unsigned x = A[threadIdx.x];
  __assert(__byte_perm(x, 7u, 0x3210) == x && __byte_perm(x, 7u, 0x4444) == 0x07070707u);
  A[threadIdx.x] = __byte_perm(x, x, 0x0123);
}

__global__ void umulhi_abs(unsigned *A) {
  unsigned t = threadIdx.x;
  unsigned x = A[t];
  __assert(__umulhi(x, 4u) == x >> 30 && abs(-(int)t) == t);
  A[t] = __umulhi(x, x);
}

// The 64-bit forms, the high halves of products, halving adds, sums of absolute differences,
// funnel shifts and byte selection, on constants.
__global__ void wide(unsigned *A) {
  unsigned t = threadIdx.x;
  __assert(__ffsll(1ll << 40) == 41 && __ffsll(0) == 0 && __popcll(0xff00000000000001ull) == 9);
  __assert(__brevll(1ull) == 0x8000000000000000ull && __clzll(0) == 64);
  __assert(__umul64hi(0xffffffffffffffffull, 0xffffffffffffffffull) == 0xfffffffffffffffeull);
  __assert(__mul64hi(-1ll, -1ll) == 0 && __mul64hi(-1ll, 1ll) == -1ll && __mulhi(-1, 1) == -1);
  __assert(__hadd(2147483647, 1) == 1073741824 && __rhadd(1, 2) == 2 && __uhadd(0xffffffffu, 1u) == 0x80000000u);
  __assert(__sad(1, 5, 10u) == 14u && __usad(5u, 1u, 10u) == 14u && __usad(0u, 0xffffffffu, 0u) == 0xffffffffu);
  __assert(__funnelshift_l(0x80000000u, 1u, 1u) == 3u && __funnelshift_lc(5u, 7u, 40u) == 5u && __funnelshift_r(1u, 1u, 1u) == 0x80000000u && __funnelshift_rc(5u, 7u, 33u) == 7u);
  __assert(__byte_perm(0x04030201u, 0x08070605u, 0x7531u) == 0x08060402u);
  __assert(labs(-3) == 3 && llabs(-3ll) == 3);
  A[t] = t;
}
