//pass
// The launch's grid is an expression of an argument the kernel also receives
// ((m + 127) / 128 blocks for m elements, m read at run time): the kernel is verified for that
// relation. The tail threads past m do nothing. Twin: launch_relation_race.cu.
#include <cstdlib>

__global__ void fill(unsigned *x, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    x[i] = i;
}

int main(int argc, char **argv) {
  unsigned m = atoi(argv[1]);
  unsigned *d;
  cudaMalloc(&d, m * sizeof(unsigned));
  fill<<<(m + 127) / 128, 128>>>(d, m);
  return 0;
}
