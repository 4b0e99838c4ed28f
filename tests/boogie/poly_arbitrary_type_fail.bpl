//xfail: errors 2
//error-lines: 13, 19
// The twin of poly_arbitrary_type.bpl: an update at `int` changes `m[y]` when `T` (or `t`) is
// `int` and `y` is 17, so neither frame property holds (a wrong "verified" before kivl gave the
// boxes of arbitrary types no tag of their own).
var m: <a>[a]bool;

procedure P<T>(y: T)
  modifies m;
  ensures m[y] == old(m)[y];
{
  m[17] := !m[17];
}

procedure Q()
  modifies m;
{
  m[17] := !m[17];
  assert (forall<t> y: t :: m[y] == old(m)[y]);
}
