// The kernel GPUVerify translated to ok.bpl (its locations are in ok.loc).
__kernel void k(__local int *A) {
  A[get_local_id(0)] = 1;
  A[get_local_id(0)] = 2;
}
