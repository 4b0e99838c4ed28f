//xfail: errors 1
//error-lines: 21
// Twin of assign.bpl: the parallel assignment swaps p and q, so q is 1, not 2.

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
  assert p == 2 && q == 2 && r == 3;
  assert t;
}
