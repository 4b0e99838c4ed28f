//pass
//args: --gridDim=[4,4,1] --blockDim=[4,4,1] --houdini
//needs-inference
// CUDA's simpleCubemapTexture: six faces of a width × width image, one pixel per thread
// (global ids x, y), face by face. The loop invariant is the residue of the written offset
// modulo width * width, with the group ids kept on the right (rule access-strided), and the
// precondition fixing `width` lets it be written with the literal. Twin: face_stride_race.cu.
__global__ void faces(float *out, int width) {
  __requires(width == 16);
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  for (unsigned int face = 0; face < 6; face++) {
    out[face * width * width + y * width + x] = x;
  }
}
