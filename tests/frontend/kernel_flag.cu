//pass
//args: --kernel good --blockDim=64 --gridDim=2
// `--kernel NAME` verifies only the named kernel: `bad` races, `good` does not. Twin:
// kernel_flag_race.cu (the same file, `--kernel bad`).
__global__ void good(int *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
__global__ void bad(int *x) { x[blockIdx.x] = threadIdx.x; }
