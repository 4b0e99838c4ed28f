/* kivl's CUDA runtime API for host code (issue 39): what a whole `.cu` program's host side
 * calls — memory, copies, streams, events, errors, device queries and the launch
 * configuration of `kernel<<<grid, block, shmem, stream>>>(…)`. Only the device code is
 * verified: these declarations let the host code parse, and no host function is translated.
 * Included by kivl_cuda.h, so `<cuda_runtime.h>` and `<cuda.h>` need nothing more. */
#ifndef KIVL_CUDA_RUNTIME_H
#define KIVL_CUDA_RUNTIME_H
/* The include guards of NVIDIA's runtime headers, which the CUDA samples' helper_cuda.h tests
 * before defining checkCudaErrors, findCudaDevice and the like; the runtime version such code
 * compares with. */
#define __DRIVER_TYPES_H__
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define CUDART_VERSION 12000
#define __CUDART_API_VERSION 12000

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 719,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorNotReady = 600,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorAssert = 710,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2, cudaLimitDevRuntimeSyncDepth = 3 };
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes;
};
typedef struct cudaIpcMemHandle_st { char reserved[64]; } cudaIpcMemHandle_t;
typedef struct cudaIpcEventHandle_st { char reserved[64]; } cudaIpcEventHandle_t;
struct CUuuid_st { char bytes[16]; };
typedef struct CUuuid_st cudaUUID_t;
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaIpcMemLazyEnablePeerAccess 0x01
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
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrConcurrentManagedAccess = 89
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};
/* Textures, surfaces and arrays on the host side (device fetches are in kivl_cuda.h). */
enum cudaChannelFormatKind { cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned, cudaChannelFormatKindFloat };
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPitchedPtr {
  void *ptr;
  size_t pitch, xsize, ysize;
};
struct cudaPos {
  size_t x, y, z;
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
enum cudaResourceType { cudaResourceTypeArray, cudaResourceTypeMipmappedArray, cudaResourceTypeLinear, cudaResourceTypePitch2D };
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
};
enum cudaTextureAddressMode { cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder };
enum cudaTextureFilterMode { cudaFilterModePoint, cudaFilterModeLinear };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
};
struct cudaResourceViewDesc;
template <class T> __host__ cudaChannelFormatDesc cudaCreateChannelDesc(void) { return cudaChannelFormatDesc(); }
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
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int maxBlocksPerMultiProcessor;
  size_t sharedMemPerBlockOptin;
  int persistingL2CacheMaxSize;
  int tccDriver;
  int pciDomainID;
  cudaUUID_t uuid;
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
__KIVL_HOST cudaChannelFormatDesc cudaCreateChannelDesc(int, int, int, int, cudaChannelFormatKind);
__KIVL_HOST cudaError_t cudaMallocArray(cudaArray_t *, const cudaChannelFormatDesc *, size_t, size_t = 0, unsigned = 0);
__KIVL_HOST cudaError_t cudaMalloc3DArray(cudaArray_t *, const cudaChannelFormatDesc *, cudaExtent, unsigned = 0);
__KIVL_HOST cudaError_t cudaFreeArray(cudaArray_t);
__KIVL_HOST cudaError_t cudaMemcpyToArray(cudaArray_t, size_t, size_t, const void *, size_t, cudaMemcpyKind);
__KIVL_HOST cudaError_t cudaMemcpy2DToArray(cudaArray_t, size_t, size_t, const void *, size_t, size_t, size_t,
                                            cudaMemcpyKind);
__KIVL_HOST cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *);
__KIVL_HOST cudaError_t cudaCreateTextureObject(cudaTextureObject_t *, const cudaResourceDesc *,
                                                const cudaTextureDesc *, const cudaResourceViewDesc *);
__KIVL_HOST cudaError_t cudaDestroyTextureObject(cudaTextureObject_t);
__KIVL_HOST cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *, const cudaResourceDesc *);
__KIVL_HOST cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t);
static inline __host__ cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { cudaExtent e = {w, h, d}; return e; }
static inline __host__ cudaPitchedPtr make_cudaPitchedPtr(void *p, size_t pitch, size_t x, size_t y) {
  cudaPitchedPtr r = {p, pitch, x, y};
  return r;
}
static inline __host__ cudaPos make_cudaPos(size_t x, size_t y, size_t z) { cudaPos r = {x, y, z}; return r; }
template <class T> __host__ cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t w, size_t h) {
  return cudaMallocPitch((void **)p, pitch, w, h);
}
template <class T> __host__ cudaError_t cudaHostGetDevicePointer(T **p, void *h, unsigned f) {
  return cudaHostGetDevicePointer((void **)p, h, f);
}
template <class T> __host__ cudaError_t cudaHostAlloc(T **p, size_t n, unsigned f) { return cudaHostAlloc((void **)p, n, f); }
template <class F> __host__ cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *, F);
__KIVL_HOST cudaError_t cudaMemset2D(void *, size_t, int, size_t, size_t);
__KIVL_HOST cudaError_t cudaMallocAsync(void **, size_t, cudaStream_t);
template <class T> __host__ cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t s) {
  return cudaMallocAsync((void **)p, n, s);
}
__KIVL_HOST cudaError_t cudaFreeAsync(void *, cudaStream_t);
__KIVL_HOST cudaError_t cudaHostRegister(void *, size_t, unsigned);
__KIVL_HOST cudaError_t cudaHostUnregister(void *);
__KIVL_HOST cudaError_t cudaDeviceSetLimit(cudaLimit, size_t);
__KIVL_HOST cudaError_t cudaDeviceGetLimit(size_t *, cudaLimit);
__KIVL_HOST cudaError_t cudaDeviceCanAccessPeer(int *, int, int);
__KIVL_HOST cudaError_t cudaDeviceEnablePeerAccess(int, unsigned);
__KIVL_HOST cudaError_t cudaDeviceDisablePeerAccess(int);
__KIVL_HOST cudaError_t cudaMemcpyPeer(void *, int, const void *, int, size_t);
__KIVL_HOST cudaError_t cudaMemcpyPeerAsync(void *, int, const void *, int, size_t, cudaStream_t = 0);
__KIVL_HOST cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *, cudaArray_const_t);
__KIVL_HOST cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *, void *);
__KIVL_HOST cudaError_t cudaIpcOpenMemHandle(void **, cudaIpcMemHandle_t, unsigned);
__KIVL_HOST cudaError_t cudaIpcCloseMemHandle(void *);
__KIVL_HOST cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void *, size_t = 0, unsigned = 0x04);
/* The launch configuration `<<<grid, block, shmem, stream>>>`: what clang calls for a launch. */
__KIVL_HOST cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
#undef __KIVL_HOST
#endif
