//pass
//error-lines:
// Functions with bodies, an {:inline} function, and a function used in a contract.

function max(a: int, b: int): int { if a >= b then a else b }
function {:inline} min(a: int, b: int): int { if a <= b then a else b }
function abs(x: int): int { if x < 0 then -x else x }
function clamp(x: int, lo: int, hi: int): int { max(lo, min(x, hi)) }

procedure Fns(x: int, y: int)
{
  assert max(x, y) >= x && max(x, y) >= y;
  assert min(x, y) <= max(x, y);
  assert abs(x) >= 0;
  assert max(3, 8) == 8;
  assert abs(-5) == min(5, 9);
  assert clamp(20, 0, 10) == 10 && clamp(-4, 0, 10) == 0 && clamp(7, 0, 10) == 7;
}

procedure UseInContract(x: int) returns (r: int)
  ensures r == abs(x);
{
  if (x < 0) { r := -x; } else { r := x; }
}
