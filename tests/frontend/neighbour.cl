//pass
//args: --local_size=32 --num_groups=8
// Each work-item reads its right neighbour before the barrier and writes its own element
// after it (seed 001 Fig. 3.6, in OpenCL).
__kernel void neighbour(__global float *out, __local float *A, float x) {
  unsigned t = get_local_id(0);
  A[t] = x * t;
  barrier(CLK_LOCAL_MEM_FENCE);
  float v = A[(t + 1) % 32];
  barrier(CLK_LOCAL_MEM_FENCE);
  A[t] = v + 1.0f;
  out[get_global_id(0)] = A[t];
}
