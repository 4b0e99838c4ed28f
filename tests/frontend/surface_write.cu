//xfail:unsupported
//args: --blockDim=64 --gridDim=1
//error-line: 10
// surface_read.cu writing back to the surface: surfaces are not modelled, and a write must not
// be dropped (it could race), so it is a located unsupported error.
surface<void, 2> surf;

__global__ void copy(float *out) {
  float v = surf2Dread<float>(surf, threadIdx.x * 4, 0);
  surf2Dwrite(v + 1.0f, surf, threadIdx.x * 4, 0);
  out[threadIdx.x] = v;
}
