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
__KIVL_FN int __kivl_implies(int, int);
__KIVL_FN int __kivl_enabled(void);
__KIVL_FN int __kivl_other_int(int);
__KIVL_FN int __kivl_other_bool(int);
__KIVL_FN int __kivl_uniform_int(int);
__KIVL_FN int __kivl_uniform_bool(int);

#ifdef __cplusplus
__KIVL_OVL int __kivl_read(__KIVL_PTR());
__KIVL_OVL int __kivl_write(__KIVL_PTR());
#else
__KIVL_OVL int __kivl_read(__KIVL_PTR(__global));
__KIVL_OVL int __kivl_read(__KIVL_PTR(__local));
__KIVL_OVL int __kivl_write(__KIVL_PTR(__global));
__KIVL_OVL int __kivl_write(__KIVL_PTR(__local));
#endif

#define __assert(e) __kivl_assert((e) != 0)
#define __assume(e) __kivl_assume((e) != 0)
#define __requires(e) __kivl_requires((e) != 0)
#define __ensures(e) __kivl_ensures((e) != 0)
#define __invariant(e) __kivl_invariant((e) != 0)
#define __candidate_invariant(e) __kivl_candidate_invariant((e) != 0)
#define __implies(a, b) __kivl_implies((a) != 0, (b) != 0)
#define __enabled() __kivl_enabled()
#define __other_int(x) __kivl_other_int(x)
#define __other_bool(x) __kivl_other_bool((x) != 0)
#define __uniform_int(x) __kivl_uniform_int(x)
#define __uniform_bool(x) __kivl_uniform_bool((x) != 0)
#define __read(p) __kivl_read(p)
#define __write(p) __kivl_write(p)
#define __no_read(p) (!__read(p))
#define __no_write(p) (!__write(p))

#endif
