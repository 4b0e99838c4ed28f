//xfail: errors 1
//error-lines: 14
// Twin of functions_body.bpl: abs(0) is 0, so abs(x) > 0 fails.

function max(a: int, b: int): int { if a >= b then a else b }
function {:inline} min(a: int, b: int): int { if a <= b then a else b }
function abs(x: int): int { if x < 0 then -x else x }

procedure Fns(x: int, y: int)
{
  assert max(x, y) >= x && max(x, y) >= y;
  assert min(x, y) <= max(x, y);
  assert abs(-5) == min(5, 9);
  assert abs(x) > 0;
}

procedure UseInContract(x: int) returns (r: int)
  ensures r == abs(x);
{
  if (x < 0) { r := -x; } else { r := x; }
}
