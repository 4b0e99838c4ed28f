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

struct uint3 { unsigned x, y, z; };
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
