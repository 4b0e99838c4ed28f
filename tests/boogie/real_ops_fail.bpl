//xfail: errors 1
//error-lines: 13
// Twin of real_ops.bpl: int() is floor (SMT-LIB to_int), so int(-3.5) is -4, not -3.

procedure RealOps(x: real, n: int)
  requires x > 0.0;
{
  assert 1.5 + 2.5 == 4.0;
  assert 7.0 / 2.0 == 3.5;
  assert x / 2.0 < x;
  assert real(n) + 1.0 == real(n + 1);
  assert int(3.7) == 3;
  assert int(-3.5) == -3;
}
