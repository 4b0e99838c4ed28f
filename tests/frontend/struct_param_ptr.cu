//pass
//args: --blockDim=64 --gridDim=4
// A pointer field of a struct passed by value points to an array of its own, as a pointer
// parameter does (GPUVerify's model): each thread writes its own element.
struct Buf {
  float *data;
  int scale;
};

__global__ void k(Buf b) {
  b.data[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
}
