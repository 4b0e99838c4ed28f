//xfail: errors 3
//error-lines: 20, 29, 42
// Twin of rmode.bpl: an arbitrary mode need not be RNE, rounding toward +oo does not give the
// nearest value on a tie, and fp.to_sbv rounds 2.5 to even (2) under RNE, not away (3).

type float32 = float24e8;
function {:builtin "fp.add"} ADD(rmode, float32, float32) returns (float32);
function {:builtin "fp.mul RTZ"} MUL_RTZ(float32, float32) returns (float32);
function {:builtin "fp.sqrt"} SQRT(rmode, float32) returns (float32);
function {:builtin "(_ fp.to_sbv 32)"} TO_INT(rmode, float32) returns (bv32);
function {:builtin "(_ to_fp 8 24)"} FROM_REAL(rmode, real) returns (float32);

procedure modes(m: rmode)
{
  var a: rmode;
  a := roundTowardNegative;
  assert a == RTN;
  assert RNE != RNA && RTP != RTZ;
  assert m == RNE || m == RNA || m == RTP || m == RTN || m == RTZ;
  assert m == RNE;
}

procedure rounding(x: float32)
  requires 0x1.0e0f24e8 <= x && x <= 0x1.0e1f24e8;
{
  // 1 + 2^-24 is a tie between 1 and 1 + 2^-23.
  assert 0x1.0e0f24e8 + 0x1.0e-6f24e8 == 0x1.0e0f24e8;
  assert ADD(RNE, 0x1.0e0f24e8, 0x1.0e-6f24e8) == 0x1.0e0f24e8;
  assert ADD(RTP, 0x1.0e0f24e8, 0x1.0e-6f24e8) == 0x1.0e0f24e8;
}

procedure more(x: float32)
  requires 0x1.0e0f24e8 <= x && x <= 0x1.0e1f24e8;
{
  assert ADD(RNA, 0x1.0e0f24e8, 0x1.0e-6f24e8) == 0x1.000002e0f24e8;
  assert ADD(RNE, x, x) == x + x;
  assert MUL_RTZ(0x1.000002e0f24e8, 0x1.000002e0f24e8) == 0x1.000004e0f24e8;
  assert SQRT(RNE, 0x4.0e0f24e8) == 0x2.0e0f24e8;
  assert TO_INT(RTP, 0x2.8e0f24e8) == 3bv32;
  assert TO_INT(RTN, -0x2.8e0f24e8) == 4294967293bv32;
  assert FROM_REAL(RTZ, 0.1) < FROM_REAL(RTP, 0.1);
  assert TO_INT(RNE, 0x2.8e0f24e8) == 3bv32;
}
