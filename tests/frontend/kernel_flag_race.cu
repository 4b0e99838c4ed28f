//xfail:race
//args: --kernel bad --blockDim=64 --gridDim=2
//error-lines: 6, 6
// kernel_flag.cu verifying the other kernel.
__global__ void good(int *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
__global__ void bad(int *x) { x[blockIdx.x] = threadIdx.x; }
