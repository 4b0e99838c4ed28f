//xfail:race
//args: --local_size=64 --num_groups=4
//error-lines: 24, 24
// vectors.cl with work-items 2m and 2m+1 storing to the same int3: a write-write race on its lanes.
// (Vector stores are split per lane, so the race is found on an element.)
int4 twice(int4 v) { return v + v; }

__kernel void swizzle(__global int4 *A, __global int3 *B, __global float4 *F, int2 k) {
  size_t i = get_global_id(0);
  int4 v = A[i];
  int4 w = v.wzyx + (int4)(1, 2, 3, 4);
  __assert(w.x == v.w + 1);
  __assert(w.y == v.z + 2);
  int4 acc = (int4)(0);
  for (int j = 0; __invariant(j <= 4), __invariant(acc.x == j), __invariant(acc.w == 4 * j), j < 4; j++) {
    acc += twice((int4)(1, 0, 0, 2)).xzyw;
    acc.x -= 1;
  }
  __assert(acc.w == 16);
  int j = k.y & 3;
  __assert(v[j] == w[3 - j] - (4 - j));
  int4 m = v < w;
  __assert(m.x == -1 || m.x == 0);
  B[i / 2] = w.xyz * k.x;
  float4 f = F[i];
  float4 g = f.yxwz;
  F[i] = g;
  __assert(__equal_floats(f.yx, g.xy));
}
