//pass
//args: --blockDim=256 --gridDim=4
// cuRAND's device API (kivl's CUDA header): each thread draws from its own XORWOW state, and
// the threads of a block share one MTGP32 state (at most 256 threads per block).
__global__ void draw(curandState *states, curandStateMtgp32_t *block_states, float *out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(1234, gid, 0, &states[gid]);
  out[gid] = curand_uniform(&states[gid]) + curand(&block_states[blockIdx.x]);
}
