/* kivl's CUDA runtime API for host code (issue 39): what a whole `.cu` program's host side
 * calls — memory, copies, streams, events, errors, device queries and the launch
 * configuration of `kernel<<<grid, block, shmem, stream>>>(…)`. Only the device code is
 * verified: these declarations let the host code parse, and no host function is translated.
 * Included by kivl_cuda.h, so `<cuda_runtime.h>` and `<cuda.h>` need nothing more. */
#ifndef KIVL_CUDA_RUNTIME_H
#define KIVL_CUDA_RUNTIME_H

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 719,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorNotReady = 600,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1, cudaFuncCachePreferEqual };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeEightByte };
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrCooperativeLaunch = 95 };
enum cudaMemoryAdvise { cudaMemAdviseSetReadMostly = 1, cudaMemAdviseSetPreferredLocation = 3 };
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaCpuDeviceId (-1)

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int managedMemory;
  int cooperativeLaunch;
};

#define __KIVL_HOST extern "C" __host__
__KIVL_HOST cudaError_t cudaMalloc(void **, size_t);
template <class T> __host__ cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
__KIVL_HOST cudaError_t cudaMallocHost(void **, size_t);
template <class T> __host__ cudaError_t cudaMallocHost(T **p, size_t n) { return cudaMallocHost((void **)p, n); }
__KIVL_HOST cudaError_t cudaHostAlloc(void **, size_t, unsigned);
__KIVL_HOST cudaError_t cudaMallocManaged(void **, size_t, unsigned = cudaMemAttachGlobal);
template <class T> __host__ cudaError_t cudaMallocManaged(T **p, size_t n, unsigned f = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)p, n, f);
}
__KIVL_HOST cudaError_t cudaMallocPitch(void **, size_t *, size_t, size_t);
__KIVL_HOST cudaError_t cudaFree(void *);
__KIVL_HOST cudaError_t cudaFreeHost(void *);
__KIVL_HOST cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
__KIVL_HOST cudaError_t cudaMemcpyAsync(void *, const void *, size_t, cudaMemcpyKind, cudaStream_t = 0);
__KIVL_HOST cudaError_t cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind);
__KIVL_HOST cudaError_t cudaMemset(void *, int, size_t);
__KIVL_HOST cudaError_t cudaMemsetAsync(void *, int, size_t, cudaStream_t = 0);
__KIVL_HOST cudaError_t cudaMemGetInfo(size_t *, size_t *);
__KIVL_HOST cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t = 0);
__KIVL_HOST cudaError_t cudaMemAdvise(const void *, size_t, cudaMemoryAdvise, int);
template <class T>
__host__ cudaError_t cudaMemcpyToSymbol(const T &, const void *, size_t, size_t = 0,
                                        cudaMemcpyKind = cudaMemcpyHostToDevice);
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbol(void *, const T &, size_t, size_t = 0,
                                          cudaMemcpyKind = cudaMemcpyDeviceToHost);
template <class T> __host__ cudaError_t cudaGetSymbolAddress(void **, const T &);
__KIVL_HOST cudaError_t cudaDeviceSynchronize(void);
__KIVL_HOST cudaError_t cudaThreadSynchronize(void);
__KIVL_HOST cudaError_t cudaDeviceReset(void);
__KIVL_HOST cudaError_t cudaGetLastError(void);
__KIVL_HOST cudaError_t cudaPeekAtLastError(void);
__KIVL_HOST const char *cudaGetErrorString(cudaError_t);
__KIVL_HOST const char *cudaGetErrorName(cudaError_t);
__KIVL_HOST cudaError_t cudaSetDevice(int);
__KIVL_HOST cudaError_t cudaGetDevice(int *);
__KIVL_HOST cudaError_t cudaGetDeviceCount(int *);
__KIVL_HOST cudaError_t cudaGetDeviceProperties(cudaDeviceProp *, int);
__KIVL_HOST cudaError_t cudaDeviceGetAttribute(int *, cudaDeviceAttr, int);
__KIVL_HOST cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache);
__KIVL_HOST cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig);
__KIVL_HOST cudaError_t cudaDriverGetVersion(int *);
__KIVL_HOST cudaError_t cudaRuntimeGetVersion(int *);
template <class F> __host__ cudaError_t cudaFuncSetCacheConfig(F, cudaFuncCache);
template <class F> __host__ cudaError_t cudaFuncSetAttribute(F, int, int);
template <class F>
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, F, int, size_t);
template <class F> __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *, int *, F, size_t = 0, int = 0);
__KIVL_HOST cudaError_t cudaStreamCreate(cudaStream_t *);
__KIVL_HOST cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned);
__KIVL_HOST cudaError_t cudaStreamDestroy(cudaStream_t);
__KIVL_HOST cudaError_t cudaStreamSynchronize(cudaStream_t);
__KIVL_HOST cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned = 0);
__KIVL_HOST cudaError_t cudaStreamQuery(cudaStream_t);
__KIVL_HOST cudaError_t cudaEventCreate(cudaEvent_t *);
__KIVL_HOST cudaError_t cudaEventCreateWithFlags(cudaEvent_t *, unsigned);
__KIVL_HOST cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
__KIVL_HOST cudaError_t cudaEventSynchronize(cudaEvent_t);
__KIVL_HOST cudaError_t cudaEventQuery(cudaEvent_t);
__KIVL_HOST cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
__KIVL_HOST cudaError_t cudaEventDestroy(cudaEvent_t);
__KIVL_HOST cudaError_t cudaHostGetDevicePointer(void **, void *, unsigned);
__KIVL_HOST cudaError_t cudaSetDeviceFlags(unsigned);
__KIVL_HOST cudaError_t cudaProfilerStart(void);
__KIVL_HOST cudaError_t cudaProfilerStop(void);
__KIVL_HOST cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);
__KIVL_HOST cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);
/* The launch configuration `<<<grid, block, shmem, stream>>>`: what clang calls for a launch. */
__KIVL_HOST cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
#undef __KIVL_HOST
#endif
