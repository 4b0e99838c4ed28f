//xfail:race
//args: --blockDim=64 --gridDim=2
//error-lines: 10, 10
// host_variable.cu where every thread writes the variable: it is shared by all threads, as
// `__device__` memory, so the writes race.
unsigned total;
int table[4];

__global__ void k(int *out) {
  total = threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x % 4];
}
