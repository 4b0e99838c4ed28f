//pass
//error-lines:
// Assignment forms: simple, parallel (the right-hand sides are evaluated before any update).

procedure Swap(a: int, b: int) returns (x: int, y: int)
  ensures x == b && y == a;
{
  x, y := a, b;
  x, y := y, x;
}

procedure Chain()
{
  var p, q, r: int;
  var t: bool;
  p := 1;
  q := p + 1;
  r := p + q;
  p, q := q, p;
  t := p > q;
  assert p == 2 && q == 1 && r == 3;
  assert t;
}
