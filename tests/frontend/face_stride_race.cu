//xfail:race
//args: --gridDim=[4,4,1] --blockDim=[4,4,1] --houdini
//error-lines: 12, 12
// face_stride.cu where each pair of threads
// x = 2k, 2k + 1 writes the same pixel (`x / 2`), with different values.
__global__ void faces(float *out, int width) {
  __requires(width == 16);
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  for (unsigned int face = 0; face < 6; face++) {
    // BUG: x / 2
    out[face * width * width + y * width + x / 2] = x;
  }
}
