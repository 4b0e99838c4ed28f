//pass
//args: --local_size=64 --num_groups=4
// Calls of functions declared without a body: `next` returns an arbitrary value and may
// write the private `t` it is given (so `t` is arbitrary after it); neither touches shared
// memory. Twin: bodiless_bug.cl.

int next(int x);
void fill(int *p);

__kernel void k(__global int *A) {
  int t = 0;
  fill(&t);
  int x = next(t);
  A[get_global_id(0)] = x + t;
}
