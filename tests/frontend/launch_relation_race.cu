//xfail:race
//error-lines: 10, 10
// launch_relation.cu with the tail threads writing too, wrapped around to the start: the
// launch's last block runs past m, and its tail threads write elements of the first block's.
#include <cstdlib>

__global__ void fill(unsigned *x, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (m > 0)
    x[i % m] = i;
}

int main(int argc, char **argv) {
  unsigned m = atoi(argv[1]);
  unsigned *d;
  cudaMalloc(&d, m * sizeof(unsigned));
  fill<<<(m + 127) / 128, 128>>>(d, m);
  return 0;
}
