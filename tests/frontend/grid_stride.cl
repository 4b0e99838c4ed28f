//pass
//args: --local_size=64 --num_groups=16 --houdini
// A grid-stride loop: each work-item takes the elements congruent to its global id modulo
// the global size. Inference finds `(i - group offset) mod global size == local id` and the
// same of the logged offsets (the counter's update goes through clang's temporary).
__kernel void scale(__global float *A, unsigned n) {
  for (unsigned i = get_global_id(0); i < n; i += get_global_size(0))
    A[i] = 2 * A[i];
}
