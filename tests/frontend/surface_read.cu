//pass
//args: --blockDim=64 --gridDim=1
// A surface read gives an arbitrary value (headers/cuda.h), into a variable or as the result.
// Twin: surface_write.cu, whose write is reported as unsupported.
surface<void, 2> surf;

__global__ void copy(float *out) {
  float v;
  surf2Dread(&v, surf, threadIdx.x * 4, 0);
  out[threadIdx.x] = v + surf2Dread<float>(surf, threadIdx.x * 4, 1);
}
