//xfail: errors 1
//error-lines: 13
// Twin of ite_expr.bpl: for negative x the result is 0, but the postcondition says 1.

procedure Ite(x: int, b: bool) returns (y: int)
  ensures y == (if x >= 0 then x else 1);
  ensures y >= 0;
{
  y := if x > 0 then x else 0;
  assert (if b then 1 else 2) > 0;
  assert (if b then x else x) == x;
  assert (if x > 10 then 2 else if x > 5 then 1 else 0) <= 2;
}
