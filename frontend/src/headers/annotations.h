/* kivl's annotation language for OpenCL and CUDA kernels: GPUVerify's names, mapped by the
 * front end (frontend/src/builtins.rs) to the KBPL built-ins. Included before every kernel. */
#ifndef KIVL_ANNOTATIONS_H
#define KIVL_ANNOTATIONS_H

#ifdef __cplusplus
#define __KIVL_FN extern "C" __attribute__((device))
#define __KIVL_OVL extern "C" __attribute__((device))
#define __KIVL_PTR(AS) const volatile void *
#else
#define __KIVL_FN
#define __KIVL_OVL __attribute__((overloadable))
#define __KIVL_PTR(AS) const volatile AS void *
#endif

__KIVL_FN void __kivl_assert(int);
__KIVL_FN void __kivl_assume(int);
__KIVL_FN void __kivl_requires(int);
__KIVL_FN void __kivl_ensures(int);
__KIVL_FN void __kivl_invariant(int);
__KIVL_FN void __kivl_candidate_invariant(int);
__KIVL_FN void __kivl_global_invariant(int);
__KIVL_FN void __kivl_candidate_global_invariant(int);
__KIVL_FN void __kivl_function_wide_invariant(int);
__KIVL_FN void __kivl_function_wide_candidate_invariant(int);
__KIVL_FN int __kivl_implies(int, int);
__KIVL_FN int __kivl_enabled(void);
__KIVL_FN int __kivl_other_int(int);
__KIVL_FN int __kivl_other_bool(int);
__KIVL_FN int __kivl_uniform_int(int);
__KIVL_FN int __kivl_uniform_bool(int);

__KIVL_FN int __kivl_distinct_int(int);
__KIVL_FN int __kivl_return_val_int(void);
__KIVL_FN int __kivl_return_val_bool(void);
__KIVL_FN int __kivl_old_int(int);
__KIVL_FN int __kivl_old_bool(int);
__KIVL_FN int __kivl_all(int);
__KIVL_FN int __kivl_exclusive(int);
__KIVL_FN void __kivl_global_assert(int);
__KIVL_FN int __kivl_ite_int(int, int, int);
/* Bit equality of floats: GPUVerify's __equal_floats/__equal_doubles, overloaded for OpenCL's
 * vectors (every lane equal). Functions, not macros, and marked overloadable, so that a kernel
 * may still define its own function of that name (GPUVerify's tests define one on pointers):
 * clang accepts one overload without the attribute. */
#ifdef __cplusplus
__attribute__((device)) int __equal_floats(float, float);
__attribute__((device)) int __equal_doubles(double, double);
#else
#define __KIVL_EQ(T) __KIVL_OVL int __equal_floats(T, T);
__KIVL_EQ(float) __KIVL_EQ(float2) __KIVL_EQ(float3) __KIVL_EQ(float4) __KIVL_EQ(float8) __KIVL_EQ(float16)
#undef __KIVL_EQ
#define __KIVL_EQ(T) __KIVL_OVL int __equal_doubles(T, T);
__KIVL_EQ(double) __KIVL_EQ(double2) __KIVL_EQ(double3) __KIVL_EQ(double4) __KIVL_EQ(double8) __KIVL_EQ(double16)
#undef __KIVL_EQ
#endif
/* Barrier invariants: the invariant, then the local ids of the work-items it is assumed for
 * after the barrier that follows. */
__KIVL_FN void __kivl_barrier_invariant_1(int, unsigned);
__KIVL_FN void __kivl_barrier_invariant_2(int, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_3(int, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_4(int, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_5(int, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_6(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_7(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_8(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_9(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_10(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_11(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_12(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
#define __barrier_invariant_1(e, i1) __kivl_barrier_invariant_1((e) != 0, i1)
#define __barrier_invariant_2(e, i1, i2) __kivl_barrier_invariant_2((e) != 0, i1, i2)
#define __barrier_invariant_3(e, i1, i2, i3) __kivl_barrier_invariant_3((e) != 0, i1, i2, i3)
#define __barrier_invariant_4(e, i1, i2, i3, i4) __kivl_barrier_invariant_4((e) != 0, i1, i2, i3, i4)
#define __barrier_invariant_5(e, i1, i2, i3, i4, i5) __kivl_barrier_invariant_5((e) != 0, i1, i2, i3, i4, i5)
#define __barrier_invariant_6(e, i1, i2, i3, i4, i5, i6) __kivl_barrier_invariant_6((e) != 0, i1, i2, i3, i4, i5, i6)
#define __barrier_invariant_7(e, i1, i2, i3, i4, i5, i6, i7) __kivl_barrier_invariant_7((e) != 0, i1, i2, i3, i4, i5, i6, i7)
#define __barrier_invariant_8(e, i1, i2, i3, i4, i5, i6, i7, i8) __kivl_barrier_invariant_8((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8)
#define __barrier_invariant_9(e, i1, i2, i3, i4, i5, i6, i7, i8, i9) __kivl_barrier_invariant_9((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9)
#define __barrier_invariant_10(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10) __kivl_barrier_invariant_10((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10)
#define __barrier_invariant_11(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11) __kivl_barrier_invariant_11((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11)
#define __barrier_invariant_12(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12) __kivl_barrier_invariant_12((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12)
__KIVL_FN void __barrier_invariant_binary_1(int, unsigned, unsigned);
__KIVL_FN void __barrier_invariant_binary_2(int, unsigned, unsigned, unsigned, unsigned);

/* GPUVerify annotations kivl does not translate yet: declared so that clang accepts the
 * kernel, reported by the front end as unsupported at their line. */
/* For every work-item, also those a branch disabled: the same as __requires/__ensures on a
 * kernel (all work-items run it), unsupported in other functions. */
__KIVL_FN void __kivl_global_requires(int);
__KIVL_FN void __kivl_global_ensures(int);
__KIVL_FN void __axiom(int);

#ifdef __cplusplus
__KIVL_OVL int __kivl_write_offset_bytes(__KIVL_PTR());
__KIVL_OVL int __kivl_read_offset_bytes(__KIVL_PTR());
__KIVL_OVL int __kivl_read(__KIVL_PTR());
__KIVL_OVL int __kivl_write(__KIVL_PTR());
__KIVL_OVL int __kivl_ptr_offset_bytes(__KIVL_PTR());
#else
__KIVL_OVL int __kivl_ptr_offset_bytes(__KIVL_PTR(__global));
__KIVL_OVL int __kivl_ptr_offset_bytes(__KIVL_PTR(__local));
__KIVL_OVL int __kivl_ptr_offset_bytes(__KIVL_PTR(__constant));
__KIVL_OVL int __kivl_ptr_offset_bytes(__KIVL_PTR(__private));
__KIVL_OVL int __kivl_read(__KIVL_PTR(__global));
__KIVL_OVL int __kivl_read(__KIVL_PTR(__local));
__KIVL_OVL int __kivl_write(__KIVL_PTR(__global));
__KIVL_OVL int __kivl_write(__KIVL_PTR(__local));
__KIVL_OVL int __kivl_read_offset_bytes(__KIVL_PTR(__global));
__KIVL_OVL int __kivl_read_offset_bytes(__KIVL_PTR(__local));
__KIVL_OVL int __kivl_write_offset_bytes(__KIVL_PTR(__global));
__KIVL_OVL int __kivl_write_offset_bytes(__KIVL_PTR(__local));
#endif

#define __assert(e) __kivl_assert((e) != 0)
#define __assume(e) __kivl_assume((e) != 0)
#define __requires(e) __kivl_requires((e) != 0)
#define __ensures(e) __kivl_ensures((e) != 0)
#define __invariant(e) __kivl_invariant((e) != 0)
#define __candidate_invariant(e) __kivl_candidate_invariant((e) != 0)
#define __global_invariant(e) __kivl_global_invariant((e) != 0)
#define __candidate_global_invariant(e) __kivl_candidate_global_invariant((e) != 0)
#define __function_wide_invariant(e) __kivl_function_wide_invariant((e) != 0)
#define __function_wide_candidate_invariant(e) __kivl_function_wide_candidate_invariant((e) != 0)
#define __implies(a, b) __kivl_implies((a) != 0, (b) != 0)
#define __enabled() __kivl_enabled()
#define __other_int(x) __kivl_other_int(x)
#define __other_bool(x) __kivl_other_bool((x) != 0)
#define __uniform_int(x) __kivl_uniform_int(x)
#define __uniform_bool(x) __kivl_uniform_bool((x) != 0)
#define __read(p) __kivl_read(p)
#define __write(p) __kivl_write(p)
#define __read_offset_bytes(p) __kivl_read_offset_bytes(p)
#define __write_offset_bytes(p) __kivl_write_offset_bytes(p)
#define __read_implies(p, e) __kivl_implies(__read(p), (e) != 0)
#define __write_implies(p, e) __kivl_implies(__write(p), (e) != 0)
#define __distinct_int(x) __kivl_distinct_int(x)
#define __ite(c, a, b) __kivl_ite_int((c) != 0, a, b)
#define __global_requires(e) __kivl_global_requires((e) != 0)
#define __global_ensures(e) __kivl_global_ensures((e) != 0)
#define __return_val_int() __kivl_return_val_int()
#define __return_val_bool() __kivl_return_val_bool()
#define __old_int(x) __kivl_old_int(x)
#define __old_bool(x) __kivl_old_bool((x) != 0)
#define __all(e) __kivl_all((e) != 0)
#define __exclusive(e) __kivl_exclusive((e) != 0)
#define __global_assert(e) __kivl_global_assert((e) != 0)
#define __ptr_offset_bytes(p) __kivl_ptr_offset_bytes(p)
#define __no_read(p) (!__read(p))
#define __no_write(p) (!__write(p))

#endif
