//pass
//args: --blockDim=32 --gridDim=1
// CUDA's integer intrinsics are exact (headers/cuda.h): facts about __ffs, __clz, __popc,
// __brev, __byte_perm, __umulhi and abs that hold for every thread and every input value (one
// kernel per intrinsic keeps each check small). Twin: int_intrinsics_bug.cu.
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
