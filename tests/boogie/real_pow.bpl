//pass
//error-lines:
// Real exponentiation `**` (Boogie's Power): binds tighter than `*`, looser than unary `-`,
// right-associative; real operands only. Validated with Boogie 2.4.1 through a z3 wrapper that
// also renames Boogie's `real_pow` to z3's `^` (z3 4.8.12 does not know `real_pow`).

procedure Pow(x: real) returns (y: real)
  requires x == 3.0;
  ensures y == 18.0;
{
  assert 2.0 ** 3.0 == 8.0;
  assert 2.0 ** 3.0 ** 2.0 == 512.0;
  assert -2.0 ** 2.0 == 4.0;
  assert 4.0 ** 0.5 == 2.0;
  y := 2.0 * x ** 2.0;
}
