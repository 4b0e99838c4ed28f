/* kivl's <cuda_fp16.h> (issue 38): half precision for the front end. A `__half` is its 16 bits
 * (2 bytes, so accesses to arrays of halves are exact), a `__half2` two `__half` lanes (4
 * bytes). Values are abstract, as all floating-point values are to kivl: a conversion is an
 * uninterpreted function of the bits, and arithmetic is done on the converted floats (whose
 * operations are uninterpreted), so equal inputs give equal results and nothing else is
 * assumed. Included after kivl_cuda.h. */
#ifndef KIVL_CUDA_FP16_H
#define KIVL_CUDA_FP16_H

/* The types and conversions are for host code too (a program fills its input arrays with
 * `half2 v; v.x = 1.0f;`), as in CUDA's header; arithmetic is device code only. */
extern "C" __host__ __device__ __attribute__((const)) unsigned short _kivl_float_to_half(float);
extern "C" __host__ __device__ __attribute__((const)) float _kivl_half_to_float(unsigned short);

struct __attribute__((aligned(2))) __half {
  unsigned short __x;
  __host__ __device__ __half() {}
  __host__ __device__ __half(float f) : __x(_kivl_float_to_half(f)) {}
  __host__ __device__ operator float() const { return _kivl_half_to_float(__x); }
};
struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __host__ __device__ __half2() {}
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
};
typedef __half half;
typedef __half2 half2;

static __host__ __device__ inline __half __float2half(float f) { return __half(f); }
static __host__ __device__ inline __half __float2half_rn(float f) { return __half(f); }
static __host__ __device__ inline __half __float2half_rz(float f) { return __half(f); }
static __host__ __device__ inline float __half2float(__half h) { return (float)h; }
static __host__ __device__ inline __half __int2half_rn(int i) { return __half((float)i); }
static __host__ __device__ inline int __half2int_rz(__half h) { return (int)(float)h; }
static __host__ __device__ inline __half __ushort_as_half(unsigned short b) { __half h; h.__x = b; return h; }
static __host__ __device__ inline unsigned short __half_as_ushort(__half h) { return h.__x; }
static __host__ __device__ inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
static __host__ __device__ inline __half2 __half2half2(__half a) { return __half2(a, a); }
static __host__ __device__ inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
static __host__ __device__ inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
static __host__ __device__ inline __half __low2half(__half2 v) { return v.x; }
static __host__ __device__ inline __half __high2half(__half2 v) { return v.y; }
static __host__ __device__ inline float __low2float(__half2 v) { return (float)v.x; }
static __host__ __device__ inline float __high2float(__half2 v) { return (float)v.y; }
static __host__ __device__ inline float2 __half22float2(__half2 v) { return make_float2((float)v.x, (float)v.y); }
static __host__ __device__ inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
static __host__ __device__ inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }

/* Scalar arithmetic and comparisons, as functions and as operators. */
#define __KIVL_H_BIN(F, OP)                                                                     \
  static __device__ inline __half F(__half a, __half b) { return __half((float)a OP(float) b); } \
  static __device__ inline __half2 F##2(__half2 a, __half2 b) { return __half2(F(a.x, b.x), F(a.y, b.y)); } \
  static __device__ inline __half operator OP(__half a, __half b) { return F(a, b); }           \
  static __device__ inline __half2 operator OP(__half2 a, __half2 b) { return F##2(a, b); }     \
  static __device__ inline __half &operator OP##=(__half &a, __half b) { return a = F(a, b); }  \
  static __device__ inline __half2 &operator OP##=(__half2 &a, __half2 b) { return a = F##2(a, b); }
__KIVL_H_BIN(__hadd, +) __KIVL_H_BIN(__hsub, -) __KIVL_H_BIN(__hmul, *) __KIVL_H_BIN(__hdiv, /)
#undef __KIVL_H_BIN
static __device__ inline __half2 __h2div(__half2 a, __half2 b) { return __hdiv2(a, b); }
static __device__ inline __half __hneg(__half a) { return __half(-(float)a); }
static __device__ inline __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
static __device__ inline __half operator-(__half a) { return __hneg(a); }
static __device__ inline __half __hfma(__half a, __half b, __half c) { return __half((float)a * (float)b + (float)c); }
static __device__ inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
#define __KIVL_H_CMP(F, OP)                                                                     \
  static __device__ inline bool F(__half a, __half b) { return (float)a OP(float) b; }          \
  static __device__ inline bool operator OP(__half a, __half b) { return F(a, b); }
__KIVL_H_CMP(__heq, ==) __KIVL_H_CMP(__hne, !=) __KIVL_H_CMP(__hlt, <) __KIVL_H_CMP(__hle, <=)
__KIVL_H_CMP(__hgt, >) __KIVL_H_CMP(__hge, >=)
#undef __KIVL_H_CMP
static __device__ inline __half __hmax(__half a, __half b) { return __hgt(a, b) ? a : b; }
static __device__ inline __half __hmin(__half a, __half b) { return __hlt(a, b) ? a : b; }
static __device__ inline __half hsqrt(__half a) { return __half(sqrtf((float)a)); }
static __device__ inline __half hexp(__half a) { return __half(expf((float)a)); }
static __device__ inline __half hlog(__half a) { return __half(logf((float)a)); }
static __device__ inline __half hrsqrt(__half a) { return __half(rsqrtf((float)a)); }
static __device__ inline __half __habs(__half a) { return __half(fabsf((float)a)); }
#endif
