//xfail: errors 3
//error-lines: 12, 24, 31
// Twin of selective_checking.bpl: the checked assertions do not follow from the assumed ones,
// an assertion reachable from a start point is checked on every path, and without the
// procedure attribute every assertion is checked.

procedure {:selective_checking} Chain()
{
  var x, y, z: int;
  assert x < y;
  assume {:start_checking_here} true;
  assert x < z;
}

procedure {:selective_checking} Join(c: bool)
{
  var x, y: int;
  assert x < y;
  if (c) {
    assume {:start_checking_here} true;
  } else {
    x := y + 1;
  }
  assert x < y;
}

procedure Plain()
{
  var x, y: int;
  assume {:start_checking_here} true;
  assert x < y;
}
