//xfail:race
//args: --blockDim=64 --gridDim=4
//error-lines: 12, 12
// struct_param_ptr.cu with every thread writing element 0 of the field's array.
struct Buf {
  float *data;
  int scale;
};

__global__ void k(Buf b) {
  // all threads: the first element
  b.data[0] = threadIdx.x;
}
