//xfail:race
//args: --houdini --blockDim=[8,4] --gridDim=[3,2]
//error-lines: 11, 13
// Twin of grid_rows.cu: a thread's rows start 4 apart but it walks 8 of them, so threads
// (0, 0) and (0, 1) of a block both update rows 4 .. 7. Inference must not hide the race.
__global__ void rows(float2 *part, float dt) {
  int gx = blockIdx.x * blockDim.x + threadIdx.x;
  int gy = blockIdx.y * (8 * blockDim.y) + threadIdx.y * 4;
  for (int p = 0; p < 8; p++) {
    int j = (gy + p) * 32 + gx;
    float2 v = part[j];
    v.x += dt * v.y;
    part[j] = v;
  }
}
