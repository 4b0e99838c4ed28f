/* kivl's CUDA device header (clang runs with -nocudainc): the qualifiers, the built-in index
 * registers and __syncthreads, as calls the front end maps to the KBPL identity constants and
 * barriers (frontend/src/builtins.rs). */
#ifndef KIVL_CUDA_H
#define KIVL_CUDA_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* Empty: kivl inlines every call anyway, and libstdc++ writes `__attribute__((__noinline__))`,
 * which an attribute in the macro would break (an empty attribute list is valid). */
#define __noinline__
/* CUDA's alignment qualifier (host_defines.h), used on structs (CUDA/align). */
#define __align__(n) __attribute__((aligned(n)))

extern "C" __device__ unsigned __kivl_local_id_x(void);
extern "C" __device__ unsigned __kivl_local_id_y(void);
extern "C" __device__ unsigned __kivl_local_id_z(void);
extern "C" __device__ unsigned __kivl_group_id_x(void);
extern "C" __device__ unsigned __kivl_group_id_y(void);
extern "C" __device__ unsigned __kivl_group_id_z(void);
extern "C" __device__ unsigned __kivl_group_size_x(void);
extern "C" __device__ unsigned __kivl_group_size_y(void);
extern "C" __device__ unsigned __kivl_group_size_z(void);
extern "C" __device__ unsigned __kivl_num_groups_x(void);
extern "C" __device__ unsigned __kivl_num_groups_y(void);
extern "C" __device__ unsigned __kivl_num_groups_z(void);
extern "C" __device__ void __syncthreads(void);

/* One register: `threadIdx.x` reads a property whose getter is an identity call. */
#define __KIVL_REGISTER(TYPE, NAME, REG)                                                       \
  struct TYPE {                                                                                \
    __declspec(property(get = __get_x)) unsigned x;                                            \
    __declspec(property(get = __get_y)) unsigned y;                                            \
    __declspec(property(get = __get_z)) unsigned z;                                            \
    static __device__ __forceinline__ unsigned __get_x(void) { return __kivl_##REG##_x(); }   \
    static __device__ __forceinline__ unsigned __get_y(void) { return __kivl_##REG##_y(); }   \
    static __device__ __forceinline__ unsigned __get_z(void) { return __kivl_##REG##_z(); }   \
  };                                                                                           \
  extern const __device__ TYPE NAME;

__KIVL_REGISTER(__kivl_threadIdx_t, threadIdx, local_id)
__KIVL_REGISTER(__kivl_blockIdx_t, blockIdx, group_id)
__KIVL_REGISTER(__kivl_blockDim_t, blockDim, group_size)
__KIVL_REGISTER(__kivl_gridDim_t, gridDim, num_groups)

struct dim3 {
  unsigned x, y, z;
  /* Always inlined, so that the host side's launches read their sizes as values (launches.rs). */
  __host__ __device__ __attribute__((always_inline)) dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1)
      : x(x), y(y), z(z) {}
};

/* Fences order a thread's own accesses; they synchronise no threads, so they are no-ops for
 * races (a barrier is __syncthreads). */
extern "C" __device__ void __threadfence_block(void);
extern "C" __device__ void __threadfence(void);
extern "C" __device__ void __threadfence_system(void);
typedef unsigned int uint;
typedef __SIZE_TYPE__ size_t;
#ifndef NULL
#define NULL 0
#endif
/* Atomics: CUDA's overloads; the front end turns each call into a KBPL `atomic` statement
 * (frontend/src/translate/atomics.rs). */
__device__ int atomicAdd(int *, int);
__device__ unsigned int atomicAdd(unsigned int *, unsigned int);
__device__ int atomicSub(int *, int);
__device__ unsigned int atomicSub(unsigned int *, unsigned int);
__device__ int atomicExch(int *, int);
__device__ unsigned int atomicExch(unsigned int *, unsigned int);
__device__ int atomicMin(int *, int);
__device__ unsigned int atomicMin(unsigned int *, unsigned int);
__device__ int atomicMax(int *, int);
__device__ unsigned int atomicMax(unsigned int *, unsigned int);
__device__ int atomicAnd(int *, int);
__device__ unsigned int atomicAnd(unsigned int *, unsigned int);
__device__ int atomicOr(int *, int);
__device__ unsigned int atomicOr(unsigned int *, unsigned int);
__device__ int atomicXor(int *, int);
__device__ unsigned int atomicXor(unsigned int *, unsigned int);
__device__ float atomicAdd(float *, float);
__device__ float atomicExch(float *, float);
__device__ unsigned int atomicInc(unsigned int *, unsigned int);
__device__ unsigned int atomicDec(unsigned int *, unsigned int);
__device__ int atomicCAS(int *, int, int);
__device__ unsigned int atomicCAS(unsigned int *, unsigned int, unsigned int);
__device__ unsigned long long int atomicAdd(unsigned long long int *, unsigned long long int);
__device__ double atomicAdd(double *, double);
__device__ unsigned long long int atomicExch(unsigned long long int *, unsigned long long int);
__device__ long long int atomicMin(long long int *, long long int);
__device__ unsigned long long int atomicMin(unsigned long long int *, unsigned long long int);
__device__ long long int atomicMax(long long int *, long long int);
__device__ unsigned long long int atomicMax(unsigned long long int *, unsigned long long int);
__device__ unsigned long long int atomicAnd(unsigned long long int *, unsigned long long int);
__device__ unsigned long long int atomicOr(unsigned long long int *, unsigned long long int);
__device__ unsigned long long int atomicXor(unsigned long long int *, unsigned long long int);
__device__ unsigned long long int atomicCAS(unsigned long long int *, unsigned long long int,
                                            unsigned long long int);

/* CUDA's vector types (`uint4`, `float2`…): structs with CUDA's alignment, and their `make_*`
 * as overloadable inline functions (the CUDA samples add overloads such as
 * `make_float4(float3, float)`, see the helper-math block below); the front end passes a
 * struct returned by value field by field (frontend/src/translate/aggregates.rs). `long` is
 * 32 bits on the 32-bit device target. */
#define __KIVL_VEC1(V, T, A)                                                                    \
  struct __attribute__((aligned(A))) V##1 { T x; };                                             \
  static __host__ __device__ inline V##1 make_##V##1(T x) { V##1 r; r.x = x; return r; }
#define __KIVL_VEC2(V, T, A)                                                                    \
  struct __attribute__((aligned(A))) V##2 { T x, y; };                                          \
  static __host__ __device__ inline V##2 make_##V##2(T x, T y) {                                \
    V##2 r; r.x = x; r.y = y; return r;                                                         \
  }
#define __KIVL_VEC3(V, T, A)                                                                    \
  struct __attribute__((aligned(A))) V##3 { T x, y, z; };                                       \
  static __host__ __device__ inline V##3 make_##V##3(T x, T y, T z) {                           \
    V##3 r; r.x = x; r.y = y; r.z = z; return r;                                                \
  }
#define __KIVL_VEC4(V, T, A)                                                                    \
  struct __attribute__((aligned(A))) V##4 { T x, y, z, w; };                                    \
  static __host__ __device__ inline V##4 make_##V##4(T x, T y, T z, T w) {                      \
    V##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r;                                       \
  }
/* The four sizes of one scalar type; A1…A4 are CUDA's alignments (vector_types.h). */
#define __KIVL_VECS(V, T, A1, A2, A3, A4)                                                       \
  __KIVL_VEC1(V, T, A1) __KIVL_VEC2(V, T, A2) __KIVL_VEC3(V, T, A3) __KIVL_VEC4(V, T, A4)
__KIVL_VECS(char, char, 1, 2, 1, 4)
__KIVL_VECS(uchar, unsigned char, 1, 2, 1, 4)
__KIVL_VECS(short, short, 2, 4, 2, 8)
__KIVL_VECS(ushort, unsigned short, 2, 4, 2, 8)
__KIVL_VECS(int, int, 4, 8, 4, 16)
__KIVL_VECS(uint, unsigned int, 4, 8, 4, 16)
__KIVL_VECS(long, long, 4, 8, 4, 16)
__KIVL_VECS(ulong, unsigned long, 4, 8, 4, 16)
__KIVL_VECS(longlong, long long, 8, 16, 8, 16)
__KIVL_VECS(ulonglong, unsigned long long, 8, 16, 8, 16)
__KIVL_VECS(float, float, 4, 8, 4, 16)
__KIVL_VECS(double, double, 8, 16, 8, 16)
#undef __KIVL_VECS
#undef __KIVL_VEC1
#undef __KIVL_VEC2
#undef __KIVL_VEC3
#undef __KIVL_VEC4

/* The warp size of every NVIDIA GPU so far. */
enum { warpSize = 32 };

/* Arbitrary values, new at each call: bodiless functions (frontend/src/translate/bodiless.rs),
 * named without the `__` that marks annotations. */
extern "C" __device__ unsigned _kivl_arbitrary_uint(void);
template <class T> __device__ T _kivl_arbitrary(void);

/* 24-bit multiplication: the product of the low 24 bits of the operands (sign-extended for
 * `__mul24`), the low 32 bits of the result. */
static __device__ inline int __mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
static __device__ inline unsigned __umul24(unsigned a, unsigned b) {
  return (a & 0xffffffu) * (b & 0xffffffu);
}

/* Math: `const` functions (no memory effect), which the front end models as uninterpreted
 * functions of their arguments, as GPUVerify does; the C++ overloads on `float` and the fast
 * intrinsics (`__expf`…) are the same functions (kivl does not model floating-point precision).
 * `min`/`max` are templates, so that a kernel may still define its own. */
#define __KIVL_MATH1(F)                                                                         \
  extern "C" __device__ __attribute__((const)) float F##f(float);                              \
  extern "C" __device__ __attribute__((const)) double F(double);                               \
  static __device__ inline float F(float x) { return F##f(x); }
#define __KIVL_MATH2(F)                                                                         \
  extern "C" __device__ __attribute__((const)) float F##f(float, float);                       \
  extern "C" __device__ __attribute__((const)) double F(double, double);                       \
  static __device__ inline float F(float x, float y) { return F##f(x, y); }
__KIVL_MATH1(sqrt) __KIVL_MATH1(rsqrt) __KIVL_MATH1(cbrt) __KIVL_MATH1(exp) __KIVL_MATH1(exp2) __KIVL_MATH1(exp10) __KIVL_MATH1(expm1) __KIVL_MATH1(log) __KIVL_MATH1(log2) __KIVL_MATH1(log10)
__KIVL_MATH1(log1p) __KIVL_MATH1(sin) __KIVL_MATH1(cos) __KIVL_MATH1(tan) __KIVL_MATH1(asin) __KIVL_MATH1(acos) __KIVL_MATH1(atan) __KIVL_MATH1(sinh) __KIVL_MATH1(cosh) __KIVL_MATH1(tanh)
__KIVL_MATH1(fabs) __KIVL_MATH1(floor) __KIVL_MATH1(ceil) __KIVL_MATH1(trunc) __KIVL_MATH1(round) __KIVL_MATH1(rint) __KIVL_MATH1(erf) __KIVL_MATH1(erfc)
__KIVL_MATH2(pow) __KIVL_MATH2(fmin) __KIVL_MATH2(fmax) __KIVL_MATH2(fmod) __KIVL_MATH2(atan2) __KIVL_MATH2(hypot) __KIVL_MATH2(copysign) __KIVL_MATH2(fdivide)
#undef __KIVL_MATH1
#undef __KIVL_MATH2
#define __KIVL_FAST1(F, G) static __device__ inline float F(float x) { return G(x); }
#define __KIVL_FAST2(F, G) static __device__ inline float F(float x, float y) { return G(x, y); }
__KIVL_FAST1(__expf, expf) __KIVL_FAST1(__exp10f, exp10f) __KIVL_FAST1(__logf, logf)
__KIVL_FAST1(__log2f, log2f) __KIVL_FAST1(__log10f, log10f) __KIVL_FAST1(__sinf, sinf)
__KIVL_FAST1(__cosf, cosf) __KIVL_FAST1(__tanf, tanf) __KIVL_FAST1(__fsqrt_rn, sqrtf)
__KIVL_FAST2(__powf, powf) __KIVL_FAST2(__fdividef, fdividef)
#undef __KIVL_FAST1
#undef __KIVL_FAST2
/* `min`/`max` of any two arithmetic operands, in their common type (CUDA's overloads, e.g.
 * `max(int, unsigned)`); templates, so that a program may define its own. */
template <class T, class U> static __host__ __device__ inline auto min(T a, U b) -> decltype(a + b) {
  return a < b ? a : b;
}
template <class T, class U> static __host__ __device__ inline auto max(T a, U b) -> decltype(a + b) {
  return a < b ? b : a;
}

/* Textures: read-only memory outside kivl's model; a fetch gives an arbitrary value, new at
 * each fetch (never a race: nothing writes a texture while a kernel runs). A texture of 8- or
 * 16-bit integers read in `cudaReadModeNormalizedFloat` gives floats, as in CUDA
 * (`__kivl_texel`). Layered, cubemap, level-of-detail and gradient fetches read the same way:
 * their extra coordinates select among arbitrary values. `texture<T, D, M>` is a device
 * built-in type, so a texture passed by value is a handle (`llvm.nvvm.texsurf.handle`), which
 * the front end models as an arbitrary number (frontend/src/builtins.rs). */
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
/* The dimension argument `D` of `texture<T, D, M>` (CUDA's `cudaTextureType*`). */
enum {
  cudaTextureType1D = 0x01,
  cudaTextureType2D = 0x02,
  cudaTextureType3D = 0x03,
  cudaTextureTypeCubemap = 0x0C,
  cudaTextureType1DLayered = 0xF1,
  cudaTextureType2DLayered = 0xF2,
  cudaTextureTypeCubemapLayered = 0xFC
};
template <class T, int D = 1, enum cudaTextureReadMode M = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int __kivl_unused;
};
typedef unsigned long long cudaTextureObject_t;
template <class T, enum cudaTextureReadMode M> struct __kivl_texel { typedef T type; };
#define __KIVL_NORMALIZED(T, F)                                                                 \
  template <> struct __kivl_texel<T, cudaReadModeNormalizedFloat> { typedef F type; };
__KIVL_NORMALIZED(char, float) __KIVL_NORMALIZED(signed char, float)
__KIVL_NORMALIZED(unsigned char, float) __KIVL_NORMALIZED(short, float)
__KIVL_NORMALIZED(unsigned short, float) __KIVL_NORMALIZED(char1, float1)
__KIVL_NORMALIZED(char2, float2) __KIVL_NORMALIZED(char4, float4) __KIVL_NORMALIZED(uchar1, float1)
__KIVL_NORMALIZED(uchar2, float2) __KIVL_NORMALIZED(uchar4, float4)
__KIVL_NORMALIZED(short1, float1) __KIVL_NORMALIZED(short2, float2)
__KIVL_NORMALIZED(short4, float4) __KIVL_NORMALIZED(ushort1, float1)
__KIVL_NORMALIZED(ushort2, float2) __KIVL_NORMALIZED(ushort4, float4)
#undef __KIVL_NORMALIZED
/* A fetch function `F` with coordinates `...`, on a texture reference and on a texture object
 * (whose texel type the caller names: `tex2D<float>(obj, x, y)`). */
#define __KIVL_TEX(F, ...)                                                                      \
  template <class T, int D, enum cudaTextureReadMode M>                                         \
  static __device__ inline typename __kivl_texel<T, M>::type F(const texture<T, D, M> &,        \
                                                               __VA_ARGS__) {                   \
    return _kivl_arbitrary<typename __kivl_texel<T, M>::type>();                                \
  }                                                                                             \
  template <class T> static __device__ inline T F(cudaTextureObject_t, __VA_ARGS__) {           \
    return _kivl_arbitrary<T>();                                                                \
  }
__KIVL_TEX(tex1Dfetch, int) __KIVL_TEX(tex1D, float) __KIVL_TEX(tex2D, float, float)
__KIVL_TEX(tex3D, float, float, float) __KIVL_TEX(tex1DLayered, float, int)
__KIVL_TEX(tex2DLayered, float, float, int) __KIVL_TEX(texCubemap, float, float, float)
__KIVL_TEX(texCubemapLayered, float, float, float, int) __KIVL_TEX(tex1DLod, float, float)
__KIVL_TEX(tex2DLod, float, float, float) __KIVL_TEX(tex3DLod, float, float, float, float)
__KIVL_TEX(tex1DGrad, float, float, float) __KIVL_TEX(tex2DGrad, float, float, float2, float2)
__KIVL_TEX(tex3DGrad, float, float, float, float4, float4)
#undef __KIVL_TEX

/* Surfaces: a read gives an arbitrary value. A write is not modelled (it would have to be
 * race-checked against the other threads' surface accesses, and surfaces are not arrays of
 * kivl's memory): it calls `__kivl_surface_write`, which the front end reports as a located
 * `unsupported` error, so that no surface write is ever dropped. */
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero, cudaBoundaryModeClamp, cudaBoundaryModeTrap };
enum {
  cudaSurfaceType1D = 0x01,
  cudaSurfaceType2D = 0x02,
  cudaSurfaceType3D = 0x03,
  cudaSurfaceTypeCubemap = 0x0C,
  cudaSurfaceType1DLayered = 0xF1,
  cudaSurfaceType2DLayered = 0xF2,
  cudaSurfaceTypeCubemapLayered = 0xFC
};
template <class T, int D = 1> struct __attribute__((device_builtin_surface_type)) surface {
  int __kivl_unused;
};
typedef unsigned long long cudaSurfaceObject_t;
extern "C" __device__ void __kivl_surface_write(void);
/* Reads into `*v` or as a value (`surf2Dread<float>(s, x, y)`), and the write, of `F` with
 * coordinates `...` (x in bytes, as in CUDA). */
#define __KIVL_SURF(READ, WRITE, ...)                                                           \
  template <class T, class S>                                                                   \
  static __device__ inline void READ(T *v, S, __VA_ARGS__,                                      \
                                     enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) {     \
    *v = _kivl_arbitrary<T>();                                                                  \
  }                                                                                             \
  template <class T, class S>                                                                   \
  static __device__ inline T READ(S, __VA_ARGS__, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) { \
    return _kivl_arbitrary<T>();                                                                \
  }                                                                                             \
  template <class T, class S>                                                                   \
  static __device__ inline void WRITE(T, S, __VA_ARGS__,                                        \
                                      enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) {    \
    __kivl_surface_write();                                                                     \
  }
__KIVL_SURF(surf1Dread, surf1Dwrite, int) __KIVL_SURF(surf2Dread, surf2Dwrite, int, int)
__KIVL_SURF(surf3Dread, surf3Dwrite, int, int, int)
__KIVL_SURF(surf1DLayeredread, surf1DLayeredwrite, int, int)
__KIVL_SURF(surf2DLayeredread, surf2DLayeredwrite, int, int, int)
__KIVL_SURF(surfCubemapread, surfCubemapwrite, int, int, int)
#undef __KIVL_SURF

/* Integer intrinsics (the CUDA Math API's), exact: straight-line bit manipulations that the
 * front end translates into bit-vector operations, so that a property of their results can be
 * proved or refuted. Counting bits is a parallel sum (no loop, no branch). */
static __device__ inline int __popc(unsigned x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (int)((x + (x >> 8) + (x >> 16) + (x >> 24)) & 0x3fu);
}
static __device__ inline int __popcll(unsigned long long x) {
  return __popc((unsigned)x) + __popc((unsigned)(x >> 32));
}
/* Every bit below the highest set bit of `x` set as well. */
static __device__ inline unsigned _kivl_fill_below(unsigned x) {
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  return x | (x >> 16);
}
static __device__ inline unsigned long long _kivl_fill_below(unsigned long long x) {
  unsigned hi = _kivl_fill_below((unsigned)(x >> 32));
  unsigned lo = _kivl_fill_below((unsigned)x) | -(unsigned)(hi != 0u);
  return ((unsigned long long)hi << 32) | lo;
}
/* Leading zeros: the bits above the highest set bit (32 or 64 for zero). */
static __device__ inline int __clz(int x) { return 32 - __popc(_kivl_fill_below((unsigned)x)); }
static __device__ inline int __clzll(long long x) {
  return 64 - __popcll(_kivl_fill_below((unsigned long long)x));
}
/* Find first set: 1 + the position of the lowest set bit, 0 for zero. `x ^ (x - 1)` sets that
 * bit and the ones below it. */
static __device__ inline int __ffs(int x) {
  unsigned u = (unsigned)x;
  return __popc(u ^ (u - 1u)) & -(int)(u != 0u);
}
static __device__ inline int __ffsll(long long x) {
  unsigned long long u = (unsigned long long)x;
  return __popcll(u ^ (u - 1ull)) & -(int)(u != 0ull);
}
/* Bit reversal: swaps of ever larger groups. */
static __device__ inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
static __device__ inline unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
/* The high halves of full products: 32-bit operands through 64-bit products; 64-bit ones
 * through four 32x32-bit partial products (the signed result corrects the unsigned one by
 * the other operand for each negative operand). */
static __device__ inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static __device__ inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
static __device__ inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  unsigned long long al = a & 0xffffffffull, ah = a >> 32, bl = b & 0xffffffffull, bh = b >> 32;
  unsigned long long lh = al * bh, hl = ah * bl;
  unsigned long long mid = ((al * bl) >> 32) + (lh & 0xffffffffull) + (hl & 0xffffffffull);
  return ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static __device__ inline long long __mul64hi(long long a, long long b) {
  unsigned long long h = __umul64hi((unsigned long long)a, (unsigned long long)b);
  return (long long)(h - ((unsigned long long)b & (unsigned long long)(a >> 63)) -
                     ((unsigned long long)a & (unsigned long long)(b >> 63)));
}
/* Halving adds without overflow (in 64 bits), rounded down or (`r`) up. */
static __device__ inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static __device__ inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static __device__ inline unsigned __uhadd(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a + b) >> 1);
}
static __device__ inline unsigned __urhadd(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a + b + 1) >> 1);
}
/* |x - y| + z, the difference taken in 64 bits; `m` is 0 or all ones (the sign). */
static __device__ inline unsigned _kivl_absdiff(long long d) {
  long long m = d >> 63;
  return (unsigned)((d ^ m) - m);
}
static __device__ inline unsigned __sad(int x, int y, unsigned z) {
  return _kivl_absdiff((long long)x - y) + z;
}
static __device__ inline unsigned __usad(unsigned x, unsigned y, unsigned z) {
  return _kivl_absdiff((long long)x - (long long)y) + z;
}
/* Byte `i` of the result is the byte of {y, x} that the nibble `i` of `s` selects. */
static __device__ inline unsigned _kivl_byte_of(unsigned long long v, unsigned s, unsigned i) {
  return (unsigned)((v >> (8u * ((s >> (4u * i)) & 7u))) & 0xffu) << (8u * i);
}
static __device__ inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  return _kivl_byte_of(v, s, 0) | _kivl_byte_of(v, s, 1) | _kivl_byte_of(v, s, 2) | _kivl_byte_of(v, s, 3);
}
/* Funnel shifts of {hi, lo}: the amount taken mod 32, or (`c`) clamped to 32. */
static __device__ inline unsigned _kivl_clamp32(unsigned s) { return s - ((s - 32u) & -(unsigned)(s > 32u)); }
static __device__ inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) {
  return (unsigned)(((((unsigned long long)hi << 32) | lo) << (s & 31u)) >> 32);
}
static __device__ inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s) {
  return (unsigned)(((((unsigned long long)hi << 32) | lo) << _kivl_clamp32(s)) >> 32);
}
static __device__ inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  return (unsigned)((((unsigned long long)hi << 32) | lo) >> (s & 31u));
}
static __device__ inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s) {
  return (unsigned)((((unsigned long long)hi << 32) | lo) >> _kivl_clamp32(s));
}
/* C's `abs` family in device code (CUDA's math headers declare it): exact for integers (the
 * most negative value stays itself, as in two's complement), `fabs` for floats. */
static __device__ inline int abs(int x) { return (x ^ (x >> 31)) - (x >> 31); }
static __device__ inline long labs(long x) { return (x ^ (x >> 31)) - (x >> 31); }
static __device__ inline long long llabs(long long x) { return (x ^ (x >> 63)) - (x >> 63); }
static __device__ inline long long abs(long long x) { return llabs(x); }
static __device__ inline float abs(float x) { return fabsf(x); }
static __device__ inline double abs(double x) { return fabs(x); }

/* Float intrinsics: uninterpreted like the rest of the math (precision is not modelled);
 * `_rn` operations are the ordinary operators (which round to nearest). */
static __device__ inline void sincosf(float x, float *s, float *c) {
  *s = sinf(x);
  *c = cosf(x);
}
static __device__ inline void __sincosf(float x, float *s, float *c) { sincosf(x, s, c); }
static __device__ inline void sincos(double x, double *s, double *c) {
  *s = sin(x);
  *c = cos(x);
}
/* frexp's mantissa and exponent are functions of its argument (uninterpreted); ldexp too. */
extern "C" __device__ __attribute__((const)) float _kivl_frexpf_mantissa(float);
extern "C" __device__ __attribute__((const)) int _kivl_frexpf_exponent(float);
extern "C" __device__ __attribute__((const)) double _kivl_frexp_mantissa(double);
extern "C" __device__ __attribute__((const)) int _kivl_frexp_exponent(double);
static __device__ inline float frexpf(float x, int *e) {
  *e = _kivl_frexpf_exponent(x);
  return _kivl_frexpf_mantissa(x);
}
static __device__ inline double frexp(double x, int *e) {
  *e = _kivl_frexp_exponent(x);
  return _kivl_frexp_mantissa(x);
}
static __device__ inline float frexp(float x, int *e) { return frexpf(x, e); }
extern "C" __device__ __attribute__((const)) float ldexpf(float, int);
extern "C" __device__ __attribute__((const)) double ldexp(double, int);
static __device__ inline float ldexp(float x, int e) { return ldexpf(x, e); }
static __device__ inline float __saturatef(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }
static __device__ inline float __fadd_rn(float x, float y) { return x + y; }
static __device__ inline float __fsub_rn(float x, float y) { return x - y; }
static __device__ inline float __fmul_rn(float x, float y) { return x * y; }
static __device__ inline float __fdiv_rn(float x, float y) { return x / y; }
static __device__ inline float __frcp_rn(float x) { return 1.0f / x; }
static __device__ inline float __frsqrt_rn(float x) { return rsqrtf(x); }
/* math_constants.h (an empty file of that name is on the include path). */
#define CUDART_PI_F 3.141592654f
#define CUDART_PIO2_F 1.570796327f
#define CUDART_PIO4_F 0.785398163f
#define CUDART_2PI_F 6.283185307f
#define CUDART_SQRT_2_F 1.414213562f
#define CUDART_SQRT_HALF_F 0.707106781f
#define CUDART_L2E_F 1.442695041f
#define CUDART_LN2_F 0.693147181f
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_PIO2 1.5707963267948966e+0
#define CUDART_2PI 6.2831853071795862e+0
#define CUDART_SQRT_2 1.4142135623730951e+0
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN __builtin_nan("")

/* Warp shuffles read a register of another thread of the warp. kivl models no warps (nor
 * which lane a shuffle reads), so a shuffle gives an arbitrary value, new at each call: every
 * value the real shuffle can return is among them, so a verified kernel is safe whatever was
 * exchanged (a property that depends on the exchanged values cannot be proved). A shuffle
 * orders no memory accesses: it is no barrier. The lane and width parameters are `int`, as
 * the kernels written for GPUVerify declare them. */
#define __KIVL_SHFL(T)                                                                          \
  static __device__ inline T __shfl(T, int, int = warpSize) { return _kivl_arbitrary<T>(); }   \
  static __device__ inline T __shfl_up(T, int, int = warpSize) { return _kivl_arbitrary<T>(); } \
  static __device__ inline T __shfl_down(T, int, int = warpSize) { return _kivl_arbitrary<T>(); } \
  static __device__ inline T __shfl_xor(T, int, int = warpSize) { return _kivl_arbitrary<T>(); } \
  static __device__ inline T __shfl_sync(unsigned, T, int, int = warpSize) { return _kivl_arbitrary<T>(); } \
  static __device__ inline T __shfl_up_sync(unsigned, T, int, int = warpSize) {                \
    return _kivl_arbitrary<T>();                                                                \
  }                                                                                             \
  static __device__ inline T __shfl_down_sync(unsigned, T, int, int = warpSize) {              \
    return _kivl_arbitrary<T>();                                                                \
  }                                                                                             \
  static __device__ inline T __shfl_xor_sync(unsigned, T, int, int = warpSize) {               \
    return _kivl_arbitrary<T>();                                                                \
  }
__KIVL_SHFL(int) __KIVL_SHFL(unsigned) __KIVL_SHFL(long long) __KIVL_SHFL(unsigned long long)
__KIVL_SHFL(float) __KIVL_SHFL(double)
#undef __KIVL_SHFL

/* cuRAND's device API. A generator's state is modelled as words that every call reads and
 * overwrites with an arbitrary value, so that threads sharing a state race (as GPUVerify
 * reports) and the numbers drawn are arbitrary.
 * - XORWOW (`curandState`): one state per thread, one word.
 * - MTGP32 (`curandStateMtgp32_t`): one state per block of at most 256 threads; thread t of
 *   the block uses word t mod 256, so more threads per block, or two blocks on one state,
 *   race. */
struct curandStateXORWOW { unsigned __kivl_word; };
typedef struct curandStateXORWOW curandState;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandStateXORWOW_t;
struct curandStateMtgp32 { unsigned __kivl_word[256]; };
typedef struct curandStateMtgp32 curandStateMtgp32_t;
static __device__ inline unsigned *_kivl_curand_word(curandState *s) { return &s->__kivl_word; }
static __device__ inline unsigned *_kivl_curand_word(curandStateMtgp32 *s) {
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return &s->__kivl_word[t & 255u];
}
static __device__ inline void curand_init(unsigned long long, unsigned long long, unsigned long long,
                                                   curandState *s) {
  *_kivl_curand_word(s) = _kivl_arbitrary_uint();
}
#define __KIVL_CURAND(R, F)                                                                     \
  template <class S, class... A> static __device__ inline R F(S *s, A...) {            \
    unsigned *w = _kivl_curand_word(s);                                                         \
    unsigned old = *w;                                                                          \
    (void)old;                                                                                  \
    *w = _kivl_arbitrary_uint();                                                                \
    return _kivl_arbitrary<R>();                                                                \
  }
__KIVL_CURAND(unsigned, curand) __KIVL_CURAND(float, curand_uniform) __KIVL_CURAND(float, curand_normal)
__KIVL_CURAND(double, curand_uniform_double) __KIVL_CURAND(double, curand_normal_double)
__KIVL_CURAND(float, curand_log_normal) __KIVL_CURAND(unsigned, curand_poisson)
#undef __KIVL_CURAND

/* Cooperative groups (<cooperative_groups.h> is on the include path, empty: this is it).
 * - `thread_block` (`this_thread_block()`): `sync()` is __syncthreads; ranks, sizes and indices
 *   are the block's registers.
 * - `grid_group` (`this_grid()`): `sync()` is a grid-wide barrier (`barrier {:grid}`).
 * - `thread_block_tile<N>` (`tiled_partition<N>(block)`), `coalesced_group`
 *   (`coalesced_threads()`): ranks and sizes are exact (a tile is N consecutive threads of the
 *   block's linear order); their collectives (`sync`, `shfl*`, `any`, `all`, `ballot`,
 *   `match_*`, `cg::reduce`) are warp-level, which kivl does not model yet: each is a located
 *   `unsupported` error (`__kivl_tile_collective`), never a call without effect. */
extern "C" __device__ void __kivl_grid_sync(void);
extern "C" __device__ void __kivl_tile_collective(unsigned);
namespace cooperative_groups {
static __device__ inline unsigned __kivl_block_rank(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
static __device__ inline unsigned __kivl_block_size(void) { return blockDim.x * blockDim.y * blockDim.z; }
struct thread_block {
  __device__ thread_block() {}
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned thread_rank() const { return __kivl_block_rank(); }
  __device__ unsigned size() const { return __kivl_block_size(); }
  __device__ unsigned num_threads() const { return __kivl_block_size(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
};
struct grid_group {
  __device__ grid_group() {}
  __device__ void sync() const { __kivl_grid_sync(); }
  __device__ bool is_valid() const { return true; }
  __device__ unsigned long long thread_rank() const {
    unsigned long long b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * (unsigned long long)blockIdx.z);
    return b * __kivl_block_size() + __kivl_block_rank();
  }
  __device__ unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * __kivl_block_size();
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
};
/* The collectives of a tile or coalesced group of `n` threads. */
#define __KIVL_TILE_COLLECTIVES(N)                                                              \
  __device__ void sync() const { __kivl_tile_collective(N); }                                   \
  template <class T> __device__ T shfl(T, int) const { __kivl_tile_collective(N); return _kivl_arbitrary<T>(); } \
  template <class T> __device__ T shfl_up(T, unsigned) const {                                  \
    __kivl_tile_collective(N); return _kivl_arbitrary<T>();                                     \
  }                                                                                             \
  template <class T> __device__ T shfl_down(T, unsigned) const {                                \
    __kivl_tile_collective(N); return _kivl_arbitrary<T>();                                     \
  }                                                                                             \
  template <class T> __device__ T shfl_xor(T, unsigned) const {                                 \
    __kivl_tile_collective(N); return _kivl_arbitrary<T>();                                     \
  }                                                                                             \
  __device__ int any(int) const { __kivl_tile_collective(N); return _kivl_arbitrary<int>(); }   \
  __device__ int all(int) const { __kivl_tile_collective(N); return _kivl_arbitrary<int>(); }   \
  __device__ unsigned ballot(int) const { __kivl_tile_collective(N); return _kivl_arbitrary_uint(); } \
  template <class T> __device__ unsigned match_any(T) const {                                   \
    __kivl_tile_collective(N); return _kivl_arbitrary_uint();                                   \
  }
template <unsigned N> struct thread_block_tile {
  __device__ thread_block_tile() {}
  __device__ unsigned thread_rank() const { return __kivl_block_rank() % N; }
  __device__ unsigned size() const { return N; }
  __device__ unsigned num_threads() const { return N; }
  __device__ unsigned meta_group_rank() const { return __kivl_block_rank() / N; }
  __device__ unsigned meta_group_size() const { return (__kivl_block_size() + N - 1) / N; }
  __KIVL_TILE_COLLECTIVES(N)
};
template <unsigned N, class P> __device__ thread_block_tile<N> tiled_partition(const P &) {
  return thread_block_tile<N>();
}
struct coalesced_group {
  __device__ coalesced_group() {}
  __device__ unsigned thread_rank() const { return _kivl_arbitrary_uint() % 32u; }
  __device__ unsigned size() const { return _kivl_arbitrary_uint() % 32u + 1u; }
  __device__ unsigned num_threads() const { return size(); }
  __KIVL_TILE_COLLECTIVES(0)
};
#undef __KIVL_TILE_COLLECTIVES
static __device__ inline coalesced_group coalesced_threads(void) { return coalesced_group(); }
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
/* `cg::reduce(tile, v, op)`: a tile collective. */
template <class G, class T, class Op> __device__ T reduce(const G &, T, Op) {
  __kivl_tile_collective(0);
  return _kivl_arbitrary<T>();
}
/* `cg::sync(g)` and a group passed as the base `thread_group` (a block's; a tile's collectives
 * stay unsupported through their own type). */
template <class G> __device__ inline void sync(const G &g) { g.sync(); }
typedef thread_block thread_group;
__device__ inline void synchronize(const thread_block &) { __syncthreads(); }
__device__ inline void synchronize(const grid_group &) { __kivl_grid_sync(); }
static __device__ inline thread_block this_thread_block(void) { return thread_block(); }
static __device__ inline grid_group this_grid(void) { return grid_group(); }
} // namespace cooperative_groups

/* ---- Vector helper math (kivl's own version of the API of the CUDA samples' helper_math.h,
 * which the samples' kernels call on the vector structs above) ----
 * Every function works field by field on the structs, so the front end sees the same scalar
 * operations as for hand-written code (float arithmetic stays uninterpreted, integer
 * arithmetic is exact bit-vector arithmetic). Floats, ints and unsigned ints, 2 to 4 fields:
 * - `make_*`: one scalar for every field, conversions between float/int/uint vectors of one
 *   size (C casts per field), and the size changes `make_float4(float3, w)`, `make_float3(
 *   float4)`, `make_float3(float2, z)`, `make_float2(float3)`…;
 * - `+ - * /` on two vectors, a vector and a scalar, a scalar and a vector; `+= -= *= /=`;
 *   unary `-` (float, int);
 * - dot, length, normalize, cross (float3), lerp, clamp, fminf/fmaxf/floorf/fabs per field,
 *   and CUDA's `saturate` (a float clamped to [0, 1]);
 * - texture fetches in `cudaReadModeNormalizedFloat` of 8- and 16-bit integer texels give
 *   floats (`uchar4` texels read as `float4`), arbitrary as every texel (see Textures). */
/* Templates (of an unused parameter), so that a program's own definitions of the same
 * functions — the CUDA samples' Common/helper_math.h, a kernel's own `clamp` — are other
 * overloads, which C++ prefers to a template, instead of redefinitions. */
#define __KIVL_HD template <int = 0> static __host__ __device__ inline
#define __KIVL_MAKE_SCALAR(V, T)                                                                \
  __KIVL_HD V##2 make_##V##2(T s) { return make_##V##2(s, s); }                                  \
  __KIVL_HD V##3 make_##V##3(T s) { return make_##V##3(s, s, s); }                               \
  __KIVL_HD V##4 make_##V##4(T s) { return make_##V##4(s, s, s, s); }                            \
  __KIVL_HD V##2 make_##V##2(V##3 a) { return make_##V##2(a.x, a.y); }                           \
  __KIVL_HD V##3 make_##V##3(V##2 a) { return make_##V##3(a.x, a.y, (T)0); }                     \
  __KIVL_HD V##3 make_##V##3(V##2 a, T z) { return make_##V##3(a.x, a.y, z); }                   \
  __KIVL_HD V##3 make_##V##3(V##4 a) { return make_##V##3(a.x, a.y, a.z); }                      \
  __KIVL_HD V##4 make_##V##4(V##3 a) { return make_##V##4(a.x, a.y, a.z, (T)0); }                \
  __KIVL_HD V##4 make_##V##4(V##3 a, T w) { return make_##V##4(a.x, a.y, a.z, w); }
#define __KIVL_CONVERT(V, T, F)                                                                 \
  __KIVL_HD V##2 make_##V##2(F##2 a) { return make_##V##2((T)a.x, (T)a.y); }                     \
  __KIVL_HD V##3 make_##V##3(F##3 a) { return make_##V##3((T)a.x, (T)a.y, (T)a.z); }             \
  __KIVL_HD V##4 make_##V##4(F##4 a) { return make_##V##4((T)a.x, (T)a.y, (T)a.z, (T)a.w); }
__KIVL_MAKE_SCALAR(float, float) __KIVL_MAKE_SCALAR(int, int) __KIVL_MAKE_SCALAR(uint, unsigned int)
__KIVL_CONVERT(float, float, int) __KIVL_CONVERT(float, float, uint)
__KIVL_CONVERT(int, int, float) __KIVL_CONVERT(int, int, uint)
__KIVL_CONVERT(uint, unsigned int, float) __KIVL_CONVERT(uint, unsigned int, int)
#undef __KIVL_MAKE_SCALAR
#undef __KIVL_CONVERT

/* One binary operator OP on vectors of V (scalar T): vector-vector, vector-scalar,
 * scalar-vector, and the compound assignments. */
#define __KIVL_BINOP(V, T, OP)                                                                  \
  __KIVL_HD V##2 operator OP(V##2 a, V##2 b) { return make_##V##2(a.x OP b.x, a.y OP b.y); }     \
  __KIVL_HD V##3 operator OP(V##3 a, V##3 b) {                                                   \
    return make_##V##3(a.x OP b.x, a.y OP b.y, a.z OP b.z);                                      \
  }                                                                                              \
  __KIVL_HD V##4 operator OP(V##4 a, V##4 b) {                                                   \
    return make_##V##4(a.x OP b.x, a.y OP b.y, a.z OP b.z, a.w OP b.w);                          \
  }                                                                                              \
  __KIVL_HD V##2 operator OP(V##2 a, T s) { return a OP make_##V##2(s); }                         \
  __KIVL_HD V##3 operator OP(V##3 a, T s) { return a OP make_##V##3(s); }                         \
  __KIVL_HD V##4 operator OP(V##4 a, T s) { return a OP make_##V##4(s); }                         \
  __KIVL_HD V##2 operator OP(T s, V##2 a) { return make_##V##2(s) OP a; }                         \
  __KIVL_HD V##3 operator OP(T s, V##3 a) { return make_##V##3(s) OP a; }                         \
  __KIVL_HD V##4 operator OP(T s, V##4 a) { return make_##V##4(s) OP a; }                         \
  __KIVL_HD void operator OP##=(V##2 &a, V##2 b) { a = a OP b; }                                  \
  __KIVL_HD void operator OP##=(V##3 &a, V##3 b) { a = a OP b; }                                  \
  __KIVL_HD void operator OP##=(V##4 &a, V##4 b) { a = a OP b; }                                  \
  __KIVL_HD void operator OP##=(V##2 &a, T s) { a = a OP make_##V##2(s); }                        \
  __KIVL_HD void operator OP##=(V##3 &a, T s) { a = a OP make_##V##3(s); }                        \
  __KIVL_HD void operator OP##=(V##4 &a, T s) { a = a OP make_##V##4(s); }
#define __KIVL_ARITH(V, T)                                                                      \
  __KIVL_BINOP(V, T, +) __KIVL_BINOP(V, T, -) __KIVL_BINOP(V, T, *) __KIVL_BINOP(V, T, /)
__KIVL_ARITH(float, float) __KIVL_ARITH(int, int) __KIVL_ARITH(uint, unsigned int)
#undef __KIVL_ARITH
#undef __KIVL_BINOP

/* Unary minus, and the functions that are the same for every size N. */
#define __KIVL_NEG(V)                                                                           \
  __KIVL_HD V##2 operator-(V##2 a) { return make_##V##2(-a.x, -a.y); }                           \
  __KIVL_HD V##3 operator-(V##3 a) { return make_##V##3(-a.x, -a.y, -a.z); }                     \
  __KIVL_HD V##4 operator-(V##4 a) { return make_##V##4(-a.x, -a.y, -a.z, -a.w); }
__KIVL_NEG(float) __KIVL_NEG(int)
#undef __KIVL_NEG
#define __KIVL_PERFIELD(V, F, G)                                                                \
  __KIVL_HD V##2 F(V##2 a) { return make_##V##2(G(a.x), G(a.y)); }                               \
  __KIVL_HD V##3 F(V##3 a) { return make_##V##3(G(a.x), G(a.y), G(a.z)); }                       \
  __KIVL_HD V##4 F(V##4 a) { return make_##V##4(G(a.x), G(a.y), G(a.z), G(a.w)); }
#define __KIVL_PERFIELD2(V, F)                                                                  \
  __KIVL_HD V##2 F(V##2 a, V##2 b) { return make_##V##2(F(a.x, b.x), F(a.y, b.y)); }             \
  __KIVL_HD V##3 F(V##3 a, V##3 b) { return make_##V##3(F(a.x, b.x), F(a.y, b.y), F(a.z, b.z)); } \
  __KIVL_HD V##4 F(V##4 a, V##4 b) {                                                             \
    return make_##V##4(F(a.x, b.x), F(a.y, b.y), F(a.z, b.z), F(a.w, b.w));                      \
  }
__KIVL_PERFIELD(float, floorf, floorf) __KIVL_PERFIELD(float, fabs, fabsf)
__KIVL_PERFIELD2(float, fminf) __KIVL_PERFIELD2(float, fmaxf)
#undef __KIVL_PERFIELD
#undef __KIVL_PERFIELD2
__KIVL_HD float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
__KIVL_HD float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__KIVL_HD float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
__KIVL_HD int dot(int2 a, int2 b) { return a.x * b.x + a.y * b.y; }
__KIVL_HD int dot(int3 a, int3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__KIVL_HD int dot(int4 a, int4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
__KIVL_HD unsigned dot(uint2 a, uint2 b) { return a.x * b.x + a.y * b.y; }
__KIVL_HD unsigned dot(uint3 a, uint3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__KIVL_HD unsigned dot(uint4 a, uint4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
__KIVL_HD float3 cross(float3 a, float3 b) {
  return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
__KIVL_HD float lerp(float a, float b, float t) { return a + t * (b - a); }
__KIVL_HD float clamp(float f, float a, float b) { return fmaxf(a, fminf(f, b)); }
__KIVL_HD int clamp(int f, int a, int b) { return f < a ? a : (f > b ? b : f); }
__KIVL_HD unsigned clamp(unsigned f, unsigned a, unsigned b) { return f < a ? a : (f > b ? b : f); }
__KIVL_HD float saturate(float f) { return clamp(f, 0.0f, 1.0f); }
#define __KIVL_FLOATN(N)                                                                        \
  __KIVL_HD float length(float##N v) { return sqrtf(dot(v, v)); }                                \
  __KIVL_HD float##N normalize(float##N v) { return v * rsqrtf(dot(v, v)); }                      \
  __KIVL_HD float##N lerp(float##N a, float##N b, float t) { return a + t * (b - a); }           \
  __KIVL_HD float##N clamp(float##N v, float a, float b) {                                      \
    return fmaxf(make_float##N(a), fminf(v, make_float##N(b)));                                 \
  }                                                                                              \
  __KIVL_HD float##N clamp(float##N v, float##N a, float##N b) { return fmaxf(a, fminf(v, b)); }
__KIVL_FLOATN(2) __KIVL_FLOATN(3) __KIVL_FLOATN(4)
#undef __KIVL_FLOATN

/* Normalized-float texture reads: integer texels of 8 and 16 bits read as floats. */
template <class T> struct __kivl_normalized { typedef T type; };
#define __KIVL_NORMALIZED(V)                                                                    \
  template <> struct __kivl_normalized<V##1> { typedef float1 type; };                           \
  template <> struct __kivl_normalized<V##2> { typedef float2 type; };                           \
  template <> struct __kivl_normalized<V##4> { typedef float4 type; };
__KIVL_NORMALIZED(char) __KIVL_NORMALIZED(uchar) __KIVL_NORMALIZED(short) __KIVL_NORMALIZED(ushort)
#undef __KIVL_NORMALIZED
template <> struct __kivl_normalized<char> { typedef float type; };
template <> struct __kivl_normalized<signed char> { typedef float type; };
template <> struct __kivl_normalized<unsigned char> { typedef float type; };
template <> struct __kivl_normalized<short> { typedef float type; };
template <> struct __kivl_normalized<unsigned short> { typedef float type; };
#define __KIVL_NORM_FETCH(F, ...)                                                               \
  template <class T, int D>                                                                      \
  static __device__ inline typename __kivl_normalized<T>::type F(                                \
      const texture<T, D, cudaReadModeNormalizedFloat> &, __VA_ARGS__) {                         \
    return _kivl_arbitrary<typename __kivl_normalized<T>::type>();                               \
  }
__KIVL_NORM_FETCH(tex1Dfetch, int) __KIVL_NORM_FETCH(tex1D, float)
__KIVL_NORM_FETCH(tex2D, float, float) __KIVL_NORM_FETCH(tex3D, float, float, float)
#undef __KIVL_NORM_FETCH
#undef __KIVL_HD
/* ---- CUDA's APIs since Volta (issue 38) ---- */
/* `__launch_bounds__(threads[, blocks])`: an occupancy hint, no meaning for verification. */
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
/* Block-wide collectives: a __syncthreads that also gives every thread of the block one value
 * computed from all their predicates (frontend/src/translate/collectives.rs). */
extern "C" __device__ int __syncthreads_or(int);
extern "C" __device__ int __syncthreads_and(int);
extern "C" __device__ int __syncthreads_count(int);
/* Warp-level collectives: declared so that a kernel using them compiles; kivl does not model
 * warps yet, so each call is a located `unsupported` error naming it (never a call without
 * effect: a warp collective that some lane of its mask does not reach is a bug). */
extern "C" __device__ void __syncwarp(unsigned = 0xffffffffu);
extern "C" __device__ unsigned __ballot_sync(unsigned, int);
extern "C" __device__ int __any_sync(unsigned, int);
extern "C" __device__ int __all_sync(unsigned, int);
template <class T> __device__ unsigned __match_any_sync(unsigned, T);
template <class T> __device__ unsigned __match_all_sync(unsigned, T, int *);
__device__ unsigned __reduce_add_sync(unsigned, unsigned);
__device__ int __reduce_add_sync(unsigned, int);
__device__ unsigned __reduce_min_sync(unsigned, unsigned);
__device__ int __reduce_min_sync(unsigned, int);
__device__ unsigned __reduce_max_sync(unsigned, unsigned);
__device__ int __reduce_max_sync(unsigned, int);
__device__ unsigned __reduce_and_sync(unsigned, unsigned);
__device__ unsigned __reduce_or_sync(unsigned, unsigned);
__device__ unsigned __reduce_xor_sync(unsigned, unsigned);
/* `__activemask()`: the lanes of the warp executing with this thread; at least its own lane
 * (the others arbitrary). Not a collective: it waits for no one. */
static __device__ inline unsigned __activemask(void) {
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return _kivl_arbitrary_uint() | (1u << (t & 31u));
}
/* `__grid_constant__` (a read-only kernel parameter): no meaning for verification. */
#define __grid_constant__
/* The SM's clock counters: an arbitrary value at each read. */
static __device__ inline long clock(void) { return (long)_kivl_arbitrary_uint(); }
static __device__ inline long long clock64(void) { return _kivl_arbitrary<long long>(); }
/* CUDA's integer min/max of unsigned and 64-bit operands. */
static __device__ inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static __device__ inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }
static __device__ inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static __device__ inline long long llmax(long long a, long long b) { return a < b ? b : a; }
static __device__ inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static __device__ inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a < b ? b : a; }
/* `__ldg(p)`: a load through the read-only data cache, the same value as `*p`. */
template <class T> static __device__ inline T __ldg(const T *p) { return *p; }
/* Bit casts: the same bits as another type (exact: a float is its bits to kivl). */
static __device__ inline int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
static __device__ inline unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
static __device__ inline float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
static __device__ inline float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
static __device__ inline long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
static __device__ inline double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
static __device__ inline int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
static __device__ inline int __double2loint(double x) { return (int)__double_as_longlong(x); }
static __device__ inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
/* Scoped atomics: `_system` ones are atomic for every thread, as the plain ones; `_block` ones
 * only for the threads of one block, which kivl models exactly on `__shared__` memory (only
 * the block sees it) and reports as `unsupported` on global memory
 * (frontend/src/translate/atomics.rs). */
#define __KIVL_SCOPED(R, F, ...) __device__ R F##_block(__VA_ARGS__); __device__ R F##_system(__VA_ARGS__);
#define __KIVL_SCOPED_INT(F)                                                                    \
  __KIVL_SCOPED(int, F, int *, int) __KIVL_SCOPED(unsigned int, F, unsigned int *, unsigned int) \
  __KIVL_SCOPED(unsigned long long int, F, unsigned long long int *, unsigned long long int)
__KIVL_SCOPED_INT(atomicAdd) __KIVL_SCOPED_INT(atomicExch) __KIVL_SCOPED_INT(atomicMin)
__KIVL_SCOPED_INT(atomicMax) __KIVL_SCOPED_INT(atomicAnd) __KIVL_SCOPED_INT(atomicOr)
__KIVL_SCOPED_INT(atomicXor)
__KIVL_SCOPED(int, atomicSub, int *, int) __KIVL_SCOPED(unsigned int, atomicSub, unsigned int *, unsigned int)
__KIVL_SCOPED(float, atomicAdd, float *, float) __KIVL_SCOPED(double, atomicAdd, double *, double)
__KIVL_SCOPED(float, atomicExch, float *, float)
__KIVL_SCOPED(unsigned int, atomicInc, unsigned int *, unsigned int)
__KIVL_SCOPED(unsigned int, atomicDec, unsigned int *, unsigned int)
__KIVL_SCOPED(int, atomicCAS, int *, int, int)
__KIVL_SCOPED(unsigned int, atomicCAS, unsigned int *, unsigned int, unsigned int)
__KIVL_SCOPED(unsigned long long int, atomicCAS, unsigned long long int *, unsigned long long int,
              unsigned long long int)
#undef __KIVL_SCOPED_INT
#undef __KIVL_SCOPED
/* <cassert>'s `assert` in device code: glibc's macro calls __assert_fail, which CUDA declares
 * for the device too (a device overload of the host function); the front end makes the call a
 * failing assertion (builtins.rs). `printf` in device code: clang lowers it to `vprintf`, which
 * writes nothing kivl models. */
extern "C" __device__ void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept(true)
    __attribute__((noreturn));
extern "C" __device__ int printf(const char *, ...);
/* The host side of a whole program (issue 39): kivl's CUDA runtime API. */
#include "kivl_cuda_runtime.h"
#endif
