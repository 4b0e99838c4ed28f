//xfail: errors 2
//error-lines: 12, 18
// Twin of real_pow.bpl: `**` is right-associative, so 2.0 ** 3.0 ** 2.0 is 512.0, not 64.0;
// and `-2.0 ** 2.0` is (-2.0) ** 2.0 = 4.0, not -(2.0 ** 2.0).

procedure Pow(x: real) returns (y: real)
  requires x == 3.0;
  ensures y == 18.0;
{
  assert 2.0 ** 3.0 == 8.0;
  assert 4.0 ** 0.5 == 2.0;
  assert 2.0 ** 3.0 ** 2.0 == 64.0;
  y := 2.0 * x ** 2.0;
}

procedure Neg()
{
  assert -2.0 ** 2.0 == -4.0;
}
