//pass
//args: --blockDim=32 --gridDim=1
// memcpy_widths.cu with a barrier before the copy: the shorts are written before any thread
// copies them (byte-level memory, each byte race-checked): verified.
__global__ void copy(int *out, short *in) {
  in[threadIdx.x] = 1;
  out[threadIdx.x] = 0;
  __syncthreads();
  __builtin_memcpy(&out[threadIdx.x], &in[2 * threadIdx.x], sizeof(int));
}
