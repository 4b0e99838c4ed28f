//pass
//error-lines:
// havoc and assume: after `havoc x, y` only the assumed facts are known; `assume false` makes
// the rest of a path vacuous.

procedure HavocAssume() returns (r: int)
  ensures r > 10;
{
  var x, y: int;
  havoc x, y;
  assume x > 3 && y > 6;
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
