//xfail:assertion
//args: --blockDim=64 --gridDim=1
//error-line: 11
// funcptr.cu without the precondition: the pointer may be null or point to no function of
// that type, and the call is reported ("possible call through a null or invalid function
// pointer").
__device__ float twice(float *v, unsigned i) { return v[i] * 2.0f; }

typedef float (*op_t)(float *, unsigned);

__global__ void k(float *v, op_t f) { v[threadIdx.x] = (*f)(v, threadIdx.x); }
