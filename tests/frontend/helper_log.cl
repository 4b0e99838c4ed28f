//pass
//args: --local_size=64 --num_groups=4
// A helper whose precondition reads the access log (`__write(p)`: nothing written through p
// yet). The helper is also checked on its own, with the clause assumed in its body, where the
// log built-in names the whole map without reading it.
void put(__global int *p, int i) {
  __requires(!__write(p));
  __requires(i == get_global_id(0));
  p[i] = 1;
}

__kernel void k(__global int *A) { put(A, get_global_id(0)); }
