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
__KIVL_FN void __kivl_barrier_invariant_13(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_14(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_15(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_16(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_17(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_18(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_19(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_20(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_21(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_22(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_23(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_24(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_25(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_26(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_27(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_28(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_29(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_30(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_31(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_32(int, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned);
#define __barrier_invariant_13(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13) __kivl_barrier_invariant_13((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13)
#define __barrier_invariant_14(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14) __kivl_barrier_invariant_14((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14)
#define __barrier_invariant_15(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15) __kivl_barrier_invariant_15((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15)
#define __barrier_invariant_16(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16) __kivl_barrier_invariant_16((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16)
#define __barrier_invariant_17(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17) __kivl_barrier_invariant_17((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17)
#define __barrier_invariant_18(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18) __kivl_barrier_invariant_18((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18)
#define __barrier_invariant_19(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19) __kivl_barrier_invariant_19((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19)
#define __barrier_invariant_20(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20) __kivl_barrier_invariant_20((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20)
#define __barrier_invariant_21(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21) __kivl_barrier_invariant_21((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21)
#define __barrier_invariant_22(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22) __kivl_barrier_invariant_22((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22)
#define __barrier_invariant_23(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23) __kivl_barrier_invariant_23((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23)
#define __barrier_invariant_24(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24) __kivl_barrier_invariant_24((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24)
#define __barrier_invariant_25(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25) __kivl_barrier_invariant_25((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25)
#define __barrier_invariant_26(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26) __kivl_barrier_invariant_26((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26)
#define __barrier_invariant_27(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27) __kivl_barrier_invariant_27((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27)
#define __barrier_invariant_28(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28) __kivl_barrier_invariant_28((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28)
#define __barrier_invariant_29(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29) __kivl_barrier_invariant_29((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29)
#define __barrier_invariant_30(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29, i30) __kivl_barrier_invariant_30((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29, i30)
#define __barrier_invariant_31(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29, i30, i31) __kivl_barrier_invariant_31((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29, i30, i31)
#define __barrier_invariant_32(e, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29, i30, i31, i32) __kivl_barrier_invariant_32((e) != 0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29, i30, i31, i32)
/* Binary barrier invariants relate two work-items (`__other_int`); their ids come in pairs,
 * the first naming the work-item, the second the other one. */
__KIVL_FN void __kivl_barrier_invariant_binary_1(int, unsigned, unsigned);
__KIVL_FN void __kivl_barrier_invariant_binary_2(int, unsigned, unsigned, unsigned, unsigned);
#define __barrier_invariant_binary_1(e, i1, j1) __kivl_barrier_invariant_binary_1((e) != 0, i1, j1)
#define __barrier_invariant_binary_2(e, i1, j1, i2, j2) __kivl_barrier_invariant_binary_2((e) != 0, i1, j1, i2, j2)

/* GPUVerify annotations kivl does not translate yet: declared so that clang accepts the
 * kernel, reported by the front end as unsupported at their line. */
/* For every work-item, also those a branch disabled: the same as __requires/__ensures on a
 * kernel (all work-items run it), unsupported in other functions. */
__KIVL_FN void __kivl_global_requires(int);
__KIVL_FN void __kivl_global_ensures(int);
/* GPUVerify's `__axiom(e)` at file scope: a function of its own whose body states `e`, made a
 * precondition of every kernel by the front end (translate/axioms.rs). `used`, so that clang
 * keeps it although nothing calls it. */
#define __KIVL_AXIOM_CAT2(a, b) a##b
#define __KIVL_AXIOM_CAT(a, b) __KIVL_AXIOM_CAT2(a, b)
#ifdef __cplusplus
#define __axiom(e) extern "C" __attribute__((device, used)) void __KIVL_AXIOM_CAT(__kivl_axiom_, __COUNTER__)(void) { __kivl_requires((e) != 0); }
#else
#define __axiom(e) __attribute__((used)) void __KIVL_AXIOM_CAT(__kivl_axiom_, __COUNTER__)(void) { __kivl_requires((e) != 0); }
#endif

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
/* The access annotations on OpenCL images, which are memory objects of texels
 * (translate/images.rs), for read-only and write-only images of each modelled type. */
#define __KIVL_IMAGE_ANNOTATIONS(Q, T)                                                           \
  __KIVL_OVL int __kivl_read(Q T);                                                               \
  __KIVL_OVL int __kivl_write(Q T);                                                              \
  __KIVL_OVL int __kivl_read_offset_bytes(Q T);                                                  \
  __KIVL_OVL int __kivl_write_offset_bytes(Q T);
__KIVL_IMAGE_ANNOTATIONS(read_only, image1d_t) __KIVL_IMAGE_ANNOTATIONS(write_only, image1d_t)
__KIVL_IMAGE_ANNOTATIONS(read_only, image1d_buffer_t) __KIVL_IMAGE_ANNOTATIONS(write_only, image1d_buffer_t)
__KIVL_IMAGE_ANNOTATIONS(read_only, image2d_t) __KIVL_IMAGE_ANNOTATIONS(write_only, image2d_t)
__KIVL_IMAGE_ANNOTATIONS(read_only, image3d_t) __KIVL_IMAGE_ANNOTATIONS(write_only, image3d_t)
#undef __KIVL_IMAGE_ANNOTATIONS
/* GPUVerify's image geometry (its opencl.h), which its annotations on images refer to. */
#ifndef CL_DEVICE_IMAGE2D_MAX_WIDTH
#define CL_DEVICE_IMAGE2D_MAX_WIDTH (1 << 15)
#endif
#ifndef CL_DEVICE_IMAGE2D_MAX_HEIGHT
#define CL_DEVICE_IMAGE2D_MAX_HEIGHT (1 << 15)
#endif
#ifndef CL_DEVICE_IMAGE3D_MAX_WIDTH
#define CL_DEVICE_IMAGE3D_MAX_WIDTH (1 << 10)
#endif
#ifndef CL_DEVICE_IMAGE3D_MAX_HEIGHT
#define CL_DEVICE_IMAGE3D_MAX_HEIGHT (1 << 10)
#endif
#ifndef CL_DEVICE_IMAGE3D_MAX_DEPTH
#define CL_DEVICE_IMAGE3D_MAX_DEPTH (1 << 10)
#endif
/* AMD's cl_ext_atomic_counters_32: a `counter32_t` kernel parameter is a counter that only
 * `atomic_inc`/`atomic_dec` touch, as GPUVerify models it: a pointer to one global uint (the
 * atomics of translate/atomics.rs). */
typedef volatile __global unsigned int *counter32_t;
#endif

/* GPUVerify's helper annotations, written as expressions over the ones above. */
/* `__same_group`: the two threads of the two-thread reduction are in one work-group. */
#ifdef __cplusplus
#define __same_group                                                                            \
  ((blockIdx.x == __other_int(blockIdx.x)) & (blockIdx.y == __other_int(blockIdx.y)) &          \
   (blockIdx.z == __other_int(blockIdx.z)))
#else
#define __same_group                                                                            \
  ((get_group_id(0) == __other_int(get_group_id(0))) &                                          \
   (get_group_id(1) == __other_int(get_group_id(1))) &                                          \
   (get_group_id(2) == __other_int(get_group_id(2))))
#endif
/* Powers of two: `__mod_pow2(x, y)` is `x mod y` when `y` is a power of two. */
#define __is_pow2(x) ((((x) & ((x) - 1)) == 0))
#define __mod_pow2(x, y) ((((y) - 1)) & (x))
/* `__dominator_enabled()`: kivl's loop invariants are evaluated where the loop is entered and
 * at the end of its body, where the thread's enabledness is that of the block dominating the
 * loop head; the same as `__enabled()` there (and, like every invariant, checked). */
#define __dominator_enabled() __kivl_enabled()
/* `__read_permission(T, x)` lets GPUVerify's barrier invariants read the location `x`. kivl
 * reads it (a volatile load, which clang keeps): the read is checked for races like any other,
 * so no other work-item may write `x` in the same barrier interval, and the location becomes
 * known to the next barrier invariant's check (seed 001 §4.4: a location one of the two
 * threads accessed holds the value they see). The value read is not used. */
#define __read_permission(T, x) ((void)*(volatile __typeof__(x) *)&(x))
/* `__requires_fresh_array(p)`: `p` points to an array no other pointer reaches. kivl already
 * gives every pointer parameter its own memory object (as GPUVerify does), so this adds
 * nothing. */
#define __requires_fresh_array(p) ((void)0)

/* Non-overflowing additions (GPUVerify's `__add_noovfl_T(x, y)`): the sum, with the
 * assumption that it does not overflow (signed: the sign of the result is that of the
 * operands when they agree; unsigned: the sum is not below an operand). The predicate
 * `__add_noovfl(a, b, …)` (1 to 4 operands) says the same of a sum without assuming it. */
#define __KIVL_SIGNED(x) (((__typeof__(x))-1) < 0)
#define __KIVL_SUM(a, b) ((__typeof__(a))((a) + (b)))
#define __KIVL_NOOVFL2(a, b)                                                                     \
  (__KIVL_SIGNED(a) ? ((((a) < 0) != ((b) < 0)) | ((__KIVL_SUM(a, b) < 0) == ((a) < 0)))         \
                    : (__KIVL_SUM(a, b) >= (a)))
#define __KIVL_NOOVFL3(a, b, c) (__KIVL_NOOVFL2(a, b) & __KIVL_NOOVFL2(__KIVL_SUM(a, b), c))
#define __KIVL_NOOVFL4(a, b, c, d) (__KIVL_NOOVFL3(a, b, c) & __KIVL_NOOVFL2(__KIVL_SUM(__KIVL_SUM(a, b), c), d))
#define __KIVL_NOOVFL1(a) 1
#define __KIVL_NOOVFL_PICK(_1, _2, _3, _4, NAME, ...) NAME
#define __add_noovfl(...)                                                                        \
  __KIVL_NOOVFL_PICK(__VA_ARGS__, __KIVL_NOOVFL4, __KIVL_NOOVFL3, __KIVL_NOOVFL2, __KIVL_NOOVFL1, 0)(__VA_ARGS__)
#ifdef __cplusplus
#define __KIVL_INLINE static __attribute__((device)) inline
#else
#define __KIVL_INLINE static inline
#endif
#define __KIVL_ADD_NOOVFL(NAME, T)                                                               \
  __KIVL_INLINE T NAME(T x, T y) {                                                               \
    __kivl_assume(__KIVL_NOOVFL2(x, y));                                                         \
    return __KIVL_SUM(x, y);                                                       \
  }
__KIVL_ADD_NOOVFL(__add_noovfl_char, char)
__KIVL_ADD_NOOVFL(__add_noovfl_short, short)
__KIVL_ADD_NOOVFL(__add_noovfl_int, int)
__KIVL_ADD_NOOVFL(__add_noovfl_unsigned_char, unsigned char)
__KIVL_ADD_NOOVFL(__add_noovfl_unsigned_short, unsigned short)
__KIVL_ADD_NOOVFL(__add_noovfl_unsigned_int, unsigned int)
#undef __KIVL_ADD_NOOVFL

/* GPUVerify's named uninterpreted functions: `DECLARE_UF_BINARY(f, A, B, R)` declares `f`, a
 * function of two arguments whose result depends on them only (`DECLARE_UF_UNARY(f, A, R)`:
 * of one). The translation names it `f` (translate/calls.rs), so that axioms about it can be
 * given in a `--boogie-file`. */
#define DECLARE_UF_UNARY(NAME, A, R)                                                             \
  __KIVL_FN R __uninterpreted_function_##NAME(A);                                                \
  __KIVL_INLINE R NAME(A x) { return __uninterpreted_function_##NAME(x); }
#define DECLARE_UF_BINARY(NAME, A, B, R)                                                         \
  __KIVL_FN R __uninterpreted_function_##NAME(A, B);                                             \
  __KIVL_INLINE R NAME(A x, B y) { return __uninterpreted_function_##NAME(x, y); }

/* `__reads_from`/`__writes_to` (in a `__spec_` function: translate/spec_functions.rs), and
 * GPUVerify annotations kivl does not translate yet, declared so that the front end reports
 * them as unsupported at their line rather than clang as undeclared. */
#ifdef __cplusplus
__KIVL_OVL void __reads_from(__KIVL_PTR());
__KIVL_OVL void __writes_to(__KIVL_PTR());
__KIVL_OVL void __array_snapshot(__KIVL_PTR(), __KIVL_PTR());
__KIVL_FN int __atomic_has_taken_value(unsigned *, unsigned, unsigned);
#else
__KIVL_OVL void __reads_from(__KIVL_PTR(__global));
__KIVL_OVL void __reads_from(__KIVL_PTR(__local));
__KIVL_OVL void __writes_to(__KIVL_PTR(__global));
__KIVL_OVL void __writes_to(__KIVL_PTR(__local));
__KIVL_OVL void __array_snapshot(__KIVL_PTR(__global), __KIVL_PTR(__global));
__KIVL_OVL void __array_snapshot(__KIVL_PTR(__local), __KIVL_PTR(__local));
__KIVL_OVL int __atomic_has_taken_value(__global unsigned *, size_t, unsigned);
__KIVL_OVL int __atomic_has_taken_value(__local unsigned *, size_t, unsigned);
__KIVL_FN int4 __return_val_int4(void);
#endif
__KIVL_FN void *__return_val_ptr(void);

/* Annotations named like functions of the C and C++ libraries, which a whole program's host
 * code includes: glibc's `__assert(msg, file, line)` and `__read(fd, buf, n)`, libstdc++'s
 * `__write(it, s, n)`. Such a macro is the annotation only when given one argument; with
 * another number of arguments it leaves the call or declaration as written (a macro's own
 * name is not expanded again in its expansion). */
#define __KIVL_CAT(a, b) __KIVL_CAT_(a, b)
#define __KIVL_CAT_(a, b) a##b
#define __KIVL_PICK9(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define __KIVL_ARITY1(...) __KIVL_PICK9(__VA_ARGS__, M, M, M, M, M, M, M, M, O, M)
#define __assert(...) __KIVL_CAT(__KIVL_ASSERT_, __KIVL_ARITY1(__VA_ARGS__))(__VA_ARGS__)
#define __KIVL_ASSERT_O(e) __kivl_assert((e) != 0)
#define __KIVL_ASSERT_M(...) __assert(__VA_ARGS__)
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
#define __read(...) __KIVL_CAT(__KIVL_READ_, __KIVL_ARITY1(__VA_ARGS__))(__VA_ARGS__)
#define __KIVL_READ_O(p) __kivl_read(p)
#define __KIVL_READ_M(...) __read(__VA_ARGS__)
#define __write(...) __KIVL_CAT(__KIVL_WRITE_, __KIVL_ARITY1(__VA_ARGS__))(__VA_ARGS__)
#define __KIVL_WRITE_O(p) __kivl_write(p)
#define __KIVL_WRITE_M(...) __write(__VA_ARGS__)
#define __read_offset_bytes(p) __kivl_read_offset_bytes(p)
#define __write_offset_bytes(p) __kivl_write_offset_bytes(p)
/* GPUVerify's earlier names of the two above (also byte offsets). */
#define __read_offset(p) __read_offset_bytes(p)
#define __write_offset(p) __write_offset_bytes(p)
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

#if defined(__OPENCL_C_VERSION__) && !defined(__cplusplus)
/* OpenCL 1.2 §6.9.k forbids kernel parameters of type `size_t`, `ptrdiff_t`, `intptr_t` and
 * `uintptr_t` (their width may differ between host and device), and clang rejects them by
 * the typedef's name; GPUVerify accepts them (OpenCL/atomics/refined_atomic_abstraction/
 * check_used_treated_ok). From here on the names stand for their underlying types, which are
 * the same types (32 bits on spir), so such a parameter is an ordinary unsigned or signed int. */
#define size_t __SIZE_TYPE__
#define ptrdiff_t __PTRDIFF_TYPE__
#define intptr_t __INTPTR_TYPE__
#define uintptr_t __UINTPTR_TYPE__
#endif

#endif
