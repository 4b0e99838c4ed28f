//pass
//args: --local_size=64 --num_groups=4
// AMD's atomic counters (cl_ext_atomic_counters_32, AMD_SDK/AtomicCounters): a counter32_t is
// a counter only atomic_inc/atomic_dec touch, so counting never races. Twin: counter32_race.cl.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
__kernel void count(__global unsigned *in, unsigned value, counter32_t counter) {
  if (in[get_global_id(0)] == value)
    atomic_inc(counter);
  else
    atomic_dec(counter);
}
