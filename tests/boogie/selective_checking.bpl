//pass
//error-lines:
// `{:selective_checking}`: only the assertions after an `assume {:start_checking_here}` are
// checked; the ones before it are assumed.

procedure {:selective_checking} Chain()
{
  var x, y, z: int;
  assert x < y;
  assert y < z;
  assume {:start_checking_here} true;
  assert x < z;
}

procedure {:selective_checking} Branches(c: bool)
{
  var x, y: int;
  assert x < y;
  if (c) {
    assume {:start_checking_here} true;
    assert x <= y;
  }
}
