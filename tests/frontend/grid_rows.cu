//pass
//args: --houdini --blockDim=[8,4] --gridDim=[3,2]
// fluidsGL's advectParticles in small: thread (x, y) of block (bx, by) updates column
// bx * 8 + x of rows by * 32 + y * 8 .. + 7 of a 32-wide grid of float2. Race freedom needs
// the thread ids as digits of the offset (rule "access-digit").
__global__ void rows(float2 *part, float dt) {
  int gx = blockIdx.x * blockDim.x + threadIdx.x;
  int gy = blockIdx.y * (8 * blockDim.y) + threadIdx.y * 8;
  for (int p = 0; p < 8; p++) {
    int j = (gy + p) * 32 + gx;
    float2 v = part[j];
    v.x += dt * v.y;
    part[j] = v;
  }
}
