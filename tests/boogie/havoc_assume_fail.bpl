//xfail: errors 1
//error-lines: 12
// Twin of havoc_assume.bpl: y is only assumed > 5, so x + y may be 10 (x = 4, y = 6).

procedure HavocAssume() returns (r: int)
  ensures r > 10;
{
  var x, y: int;
  havoc x, y;
  assume x > 3 && y > 5;
  r := x + y;
  assert r > 10;
}

procedure Vacuous(k: int)
{
  if (k > 0) {
    assume false;
    assert k < 0;
  }
}
