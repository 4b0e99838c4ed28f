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
#define __noinline__ __attribute__((noinline))
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
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
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

/* CUDA's vector types (`uint4`, `float2`…) with their alignment, and their `make_*`
 * (compound literals, not functions: a struct returned by value is not modelled). `long` is
 * 32 bits on the 32-bit device target. */
struct __attribute__((aligned(1))) char1 { char x; };
#define make_char1(x) ((char1){(x)})
struct __attribute__((aligned(2))) char2 { char x, y; };
#define make_char2(x, y) ((char2){(x), (y)})
struct __attribute__((aligned(1))) char3 { char x, y, z; };
#define make_char3(x, y, z) ((char3){(x), (y), (z)})
struct __attribute__((aligned(4))) char4 { char x, y, z, w; };
#define make_char4(x, y, z, w) ((char4){(x), (y), (z), (w)})
struct __attribute__((aligned(1))) uchar1 { unsigned char x; };
#define make_uchar1(x) ((uchar1){(x)})
struct __attribute__((aligned(2))) uchar2 { unsigned char x, y; };
#define make_uchar2(x, y) ((uchar2){(x), (y)})
struct __attribute__((aligned(1))) uchar3 { unsigned char x, y, z; };
#define make_uchar3(x, y, z) ((uchar3){(x), (y), (z)})
struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };
#define make_uchar4(x, y, z, w) ((uchar4){(x), (y), (z), (w)})
struct __attribute__((aligned(2))) short1 { short x; };
#define make_short1(x) ((short1){(x)})
struct __attribute__((aligned(4))) short2 { short x, y; };
#define make_short2(x, y) ((short2){(x), (y)})
struct __attribute__((aligned(2))) short3 { short x, y, z; };
#define make_short3(x, y, z) ((short3){(x), (y), (z)})
struct __attribute__((aligned(8))) short4 { short x, y, z, w; };
#define make_short4(x, y, z, w) ((short4){(x), (y), (z), (w)})
struct __attribute__((aligned(2))) ushort1 { unsigned short x; };
#define make_ushort1(x) ((ushort1){(x)})
struct __attribute__((aligned(4))) ushort2 { unsigned short x, y; };
#define make_ushort2(x, y) ((ushort2){(x), (y)})
struct __attribute__((aligned(2))) ushort3 { unsigned short x, y, z; };
#define make_ushort3(x, y, z) ((ushort3){(x), (y), (z)})
struct __attribute__((aligned(8))) ushort4 { unsigned short x, y, z, w; };
#define make_ushort4(x, y, z, w) ((ushort4){(x), (y), (z), (w)})
struct __attribute__((aligned(4))) int1 { int x; };
#define make_int1(x) ((int1){(x)})
struct __attribute__((aligned(8))) int2 { int x, y; };
#define make_int2(x, y) ((int2){(x), (y)})
struct __attribute__((aligned(4))) int3 { int x, y, z; };
#define make_int3(x, y, z) ((int3){(x), (y), (z)})
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
#define make_int4(x, y, z, w) ((int4){(x), (y), (z), (w)})
struct __attribute__((aligned(4))) uint1 { unsigned int x; };
#define make_uint1(x) ((uint1){(x)})
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
#define make_uint2(x, y) ((uint2){(x), (y)})
struct __attribute__((aligned(4))) uint3 { unsigned int x, y, z; };
#define make_uint3(x, y, z) ((uint3){(x), (y), (z)})
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
#define make_uint4(x, y, z, w) ((uint4){(x), (y), (z), (w)})
struct __attribute__((aligned(4))) long1 { long x; };
#define make_long1(x) ((long1){(x)})
struct __attribute__((aligned(8))) long2 { long x, y; };
#define make_long2(x, y) ((long2){(x), (y)})
struct __attribute__((aligned(4))) long3 { long x, y, z; };
#define make_long3(x, y, z) ((long3){(x), (y), (z)})
struct __attribute__((aligned(16))) long4 { long x, y, z, w; };
#define make_long4(x, y, z, w) ((long4){(x), (y), (z), (w)})
struct __attribute__((aligned(4))) ulong1 { unsigned long x; };
#define make_ulong1(x) ((ulong1){(x)})
struct __attribute__((aligned(8))) ulong2 { unsigned long x, y; };
#define make_ulong2(x, y) ((ulong2){(x), (y)})
struct __attribute__((aligned(4))) ulong3 { unsigned long x, y, z; };
#define make_ulong3(x, y, z) ((ulong3){(x), (y), (z)})
struct __attribute__((aligned(16))) ulong4 { unsigned long x, y, z, w; };
#define make_ulong4(x, y, z, w) ((ulong4){(x), (y), (z), (w)})
struct __attribute__((aligned(8))) longlong1 { long long x; };
#define make_longlong1(x) ((longlong1){(x)})
struct __attribute__((aligned(16))) longlong2 { long long x, y; };
#define make_longlong2(x, y) ((longlong2){(x), (y)})
struct __attribute__((aligned(8))) longlong3 { long long x, y, z; };
#define make_longlong3(x, y, z) ((longlong3){(x), (y), (z)})
struct __attribute__((aligned(16))) longlong4 { long long x, y, z, w; };
#define make_longlong4(x, y, z, w) ((longlong4){(x), (y), (z), (w)})
struct __attribute__((aligned(8))) ulonglong1 { unsigned long long x; };
#define make_ulonglong1(x) ((ulonglong1){(x)})
struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };
#define make_ulonglong2(x, y) ((ulonglong2){(x), (y)})
struct __attribute__((aligned(8))) ulonglong3 { unsigned long long x, y, z; };
#define make_ulonglong3(x, y, z) ((ulonglong3){(x), (y), (z)})
struct __attribute__((aligned(16))) ulonglong4 { unsigned long long x, y, z, w; };
#define make_ulonglong4(x, y, z, w) ((ulonglong4){(x), (y), (z), (w)})
struct __attribute__((aligned(4))) float1 { float x; };
#define make_float1(x) ((float1){(x)})
struct __attribute__((aligned(8))) float2 { float x, y; };
#define make_float2(x, y) ((float2){(x), (y)})
struct __attribute__((aligned(4))) float3 { float x, y, z; };
#define make_float3(x, y, z) ((float3){(x), (y), (z)})
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
#define make_float4(x, y, z, w) ((float4){(x), (y), (z), (w)})
struct __attribute__((aligned(8))) double1 { double x; };
#define make_double1(x) ((double1){(x)})
struct __attribute__((aligned(16))) double2 { double x, y; };
#define make_double2(x, y) ((double2){(x), (y)})
struct __attribute__((aligned(8))) double3 { double x, y, z; };
#define make_double3(x, y, z) ((double3){(x), (y), (z)})
struct __attribute__((aligned(16))) double4 { double x, y, z, w; };
#define make_double4(x, y, z, w) ((double4){(x), (y), (z), (w)})

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
template <class T> static __device__ inline T min(T a, T b) { return a < b ? a : b; }
template <class T> static __device__ inline T max(T a, T b) { return a < b ? b : a; }

/* Textures: read-only memory outside kivl's model; a fetch gives an arbitrary value (never a
 * race: nothing writes a texture while a kernel runs). */
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
template <class T, int D = 1, enum cudaTextureReadMode M = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int __kivl_unused;
};
typedef unsigned long long cudaTextureObject_t;
template <class T, int D, enum cudaTextureReadMode M>
static __device__ inline T tex1Dfetch(const texture<T, D, M> &, int) { return _kivl_arbitrary<T>(); }
template <class T, int D, enum cudaTextureReadMode M>
static __device__ inline T tex1D(const texture<T, D, M> &, float) { return _kivl_arbitrary<T>(); }
template <class T, int D, enum cudaTextureReadMode M>
static __device__ inline T tex2D(const texture<T, D, M> &, float, float) { return _kivl_arbitrary<T>(); }
template <class T, int D, enum cudaTextureReadMode M>
static __device__ inline T tex3D(const texture<T, D, M> &, float, float, float) {
  return _kivl_arbitrary<T>();
}
template <class T> static __device__ inline T tex1Dfetch(cudaTextureObject_t, int) { return _kivl_arbitrary<T>(); }
template <class T> static __device__ inline T tex2D(cudaTextureObject_t, float, float) { return _kivl_arbitrary<T>(); }

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

/* Cooperative groups: a block's sync is __syncthreads; grid-wide sync is reported as
 * unsupported by the front end. */
extern "C" __device__ void __kivl_grid_sync(void);
namespace cooperative_groups {
struct thread_block {
  __device__ thread_block() {}
  __device__ void sync() const { __syncthreads(); }
};
struct grid_group {
  __device__ grid_group() {}
  __device__ void sync() const { __kivl_grid_sync(); }
};
__device__ inline void synchronize(const thread_block &) { __syncthreads(); }
__device__ inline void synchronize(const grid_group &) { __kivl_grid_sync(); }
} // namespace cooperative_groups
#define this_thread_block() thread_block()
#define this_grid() grid_group()
#endif
