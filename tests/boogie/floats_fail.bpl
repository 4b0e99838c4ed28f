//xfail: errors 5
//error-lines: 20, 26, 32, 38, 44
// Twin of floats.bpl: x <= y <= x allows x == +0.0, y == -0.0 (`==` is not fp.eq),
// the small addend is absorbed, NaN is not IEEE-equal to itself, 0.0 and -0.0 are distinct
// values for `==`, and 0.1 is not exact.

type float32 = float24e8;
function {:builtin "fp.eq"} FEQ(float32, float32) returns (bool);
function {:builtin "fp.isNaN"} isNaN(float32) returns (bool);
function {:builtin "fp.to_real"} toReal(float32) returns (real);
function {:builtin "(_ to_fp 8 24) RNE"} fromInt(int) returns (float32);
function {:builtin "(_ to_fp 8 24) RNE"} fromReal(real) returns (float32);
function {:builtin "(_ to_fp 8 24)"} fromBits(bv32) returns (float32);
function {:builtin "(_ to_fp 11 53) RNE"} widen(float32) returns (float53e11);

procedure order(x: float32, y: float32)
  requires x <= y && y <= x;
{
  assert FEQ(x, y) && !isNaN(x);
  assert x == y;
}

procedure arith()
{
  assert 0x1.8e0f24e8 + 0x1.8e0f24e8 == 0x3.0e0f24e8;
  assert 0x1.0e4f24e8 + 0x1.0e-4f24e8 > 0x1.0e4f24e8;
}

procedure special()
{
  assert 0x0.0e0f24e8 / 0x0.0e0f24e8 == 0NaN24e8;
  assert FEQ(0NaN24e8, 0NaN24e8);
}

procedure zeros()
{
  assert FEQ(0x0.0e0f24e8, -0x0.0e0f24e8);
  assert 0x0.0e0f24e8 == -0x0.0e0f24e8;
}

procedure conversions()
{
  assert fromInt(5) == 0x5.0e0f24e8 && fromBits(1065353216bv32) == 0x1.0e0f24e8;
  assert toReal(fromReal(0.1)) == 0.1;
}
