// The kernel GPUVerify translated to race.bpl (its locations are in race.loc).
__kernel void k(__local int *A) {
  A[get_local_id(0)] = 1;
  A[get_local_id(0) + 1] = 2;
}
