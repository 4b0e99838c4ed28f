//xfail:race
//args: --blockDim=256 --gridDim=4
//error-line: 8
// curand.cu with every thread drawing from one XORWOW state: drawing a number updates the
// state, so the threads race on it.
__global__ void draw(curandState *states, curandStateMtgp32_t *block_states, float *out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = curand_uniform(&states[0]) + curand(&block_states[blockIdx.x]);
}
