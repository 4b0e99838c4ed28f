//xfail:race
//args: --local_size=64 --num_groups=4
//error-lines: 8, 8
// counter32.cl storing each work-item's id at the slot its count modulo 4 names: two
// work-items whose counts differ by 4 write the same slot.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
__kernel void count(__global unsigned *out, counter32_t counter) {
  out[atomic_inc(counter) % 4] = get_global_id(0);
}
