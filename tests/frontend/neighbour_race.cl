//xfail:race
//args: --local_size=32 --num_groups=8
//error-lines: 9, 11
// neighbour.cl without the second barrier: the write of A[t] races with the read of A[t + 1].
__kernel void neighbour(__global float *out, __local float *A, float x) {
  unsigned t = get_local_id(0);
  A[t] = x * t;
  barrier(CLK_LOCAL_MEM_FENCE);
  float v = A[(t + 1) % 32];

  A[t] = v + 1.0f;
  out[get_global_id(0)] = A[t];
}
