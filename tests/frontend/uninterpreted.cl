//pass
//args: --local_size=64 --num_groups=4
// GPUVerify's uninterpreted functions, and its helpers `__same_group` and `__mod_pow2`.
int __uninterpreted_function_hash(int);

__kernel void k(__global int *A) {
  int g = get_global_id(0);
  __assert(__uninterpreted_function_hash(g) == __uninterpreted_function_hash(get_global_id(0)));
  __assert(__implies(__same_group, get_group_id(0) == __other_int(get_group_id(0))));
  __assert(__mod_pow2(g, get_local_size(0)) == get_local_id(0));
  A[g] = __uninterpreted_function_hash(g);
}
