//pass
//error-lines:
// Reals: literals, + - * /, comparisons, and the int()/real() coercions (int() rounds down).

procedure RealOps(x: real, n: int)
  requires x > 0.0;
{
  assert 1.5 + 2.5 == 4.0;
  assert 7.0 / 2.0 == 3.5;
  assert x / 2.0 < x;
  assert real(n) + 1.0 == real(n + 1);
  assert int(3.7) == 3;
  assert int(-3.5) == -4;
  assert x * 2.0 == x + x;
  assert -x < 0.0 && 0.0 <= x - x;
  assert real(int(x)) <= x;
}
