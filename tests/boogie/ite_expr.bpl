//pass
//error-lines:
// if-then-else expressions, nested and inside other expressions.

procedure Ite(x: int, b: bool) returns (y: int)
  ensures y == (if x > 0 then x else 0);
  ensures y >= 0;
{
  y := if x > 0 then x else 0;
  assert (if b then 1 else 2) > 0;
  assert (if b then x else x) == x;
  assert (if x > 10 then 2 else if x > 5 then 1 else 0) <= 2;
  assert 3 + (if b then 1 else -1) != 3;
}
