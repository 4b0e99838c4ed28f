//pass
//error-lines:
// Floats: literals (hex, NaN, infinities, signed zero, subnormal), `+ - * /` (rounding with
// RNE) and the comparisons, `==` as SMT equality (NaN equals itself, 0.0 differs from -0.0)
// beside {:builtin "fp.eq"}, and {:builtin} conversions (`to_fp` from int, real, float and
// IEEE bits, `fp.to_real`, `fp.isNaN`).

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
}

procedure arith()
{
  assert 0x1.8e0f24e8 + 0x1.8e0f24e8 == 0x3.0e0f24e8;
  assert 0x3.0e0f24e8 - 0x1.0e0f24e8 == 0x2.0e0f24e8;
  assert 0x1.8e0f24e8 * 0x2.0e0f24e8 == 0x3.0e0f24e8;
  assert 0x3.0e0f24e8 / 0x2.0e0f24e8 == 0x1.8e0f24e8;
  assert 0x1.0e0f24e8 / 0x3.0e0f24e8 * 0x3.0e0f24e8 == 0x1.0e0f24e8;
  // 2^16 + 2^-16 needs 33 significand bits: the small addend is absorbed.
  assert 0x1.0e4f24e8 + 0x1.0e-4f24e8 == 0x1.0e4f24e8;
}

procedure special()
{
  var nan: float32;
  nan := 0NaN24e8;
  assert nan == 0nan24e8;
  assert !FEQ(nan, nan);
  assert isNaN(0x0.0e0f24e8 / 0x0.0e0f24e8);
  assert 0x0.0e0f24e8 != -0x0.0e0f24e8;
  assert FEQ(0x0.0e0f24e8, -0x0.0e0f24e8);
  assert 0x1.0e0f24e8 / 0x0.0e0f24e8 == 0+oo24e8;
  assert 0-oo24e8 < -0x1.0e31f24e8;
  assert 0x0.000008e-32f24e8 > 0x0.0e0f24e8;
  assert 0x0.000008e-32f24e8 / 0x2.0e0f24e8 == 0x0.0e0f24e8;
}

procedure conversions()
{
  assert fromInt(5) == 0x5.0e0f24e8;
  assert fromReal(-0.5) == -0x0.8e0f24e8;
  assert toReal(fromReal(0.1)) != 0.1;
  assert fromBits(1065353216bv32) == 0x1.0e0f24e8;
  assert toReal(0x2.4e0f24e8) == 2.25;
  assert widen(0x1.8e0f24e8) == 0x1.8e0f53e11;
}
