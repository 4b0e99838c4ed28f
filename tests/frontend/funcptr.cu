//pass
//args: --blockDim=64 --gridDim=1
// A call through a function pointer parameter that the precondition limits to two functions:
// each branch of the case split reads the thread's own element, which the thread then writes.
__device__ float twice(float *v, unsigned i) { return v[i] * 2.0f; }
__device__ float half(float *v, unsigned i) { return v[i] * 0.5f; }

typedef float (*op_t)(float *, unsigned);

__global__ void k(float *v, op_t f) {
  __requires(f == twice | f == half);
  v[threadIdx.x] = (*f)(v, threadIdx.x);
}
