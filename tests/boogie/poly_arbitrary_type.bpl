//pass
//error-lines:
// A polymorphic procedure's type parameter and the type of a `forall<t>` to prove stand for
// any type, `int` included: an update of a polymorphic map at `y: T` and at `int` may be at
// the same key. Here each update is undone, so the frame properties hold at every type.
var m: <a>[a]bool;

procedure P<T>(y: T)
  modifies m;
  ensures m[y] == old(m)[y];
{
  m[y] := !m[y];
  m[y] := !m[y];
}

procedure Q()
  modifies m;
{
  call P(17);
  assert m[17] == old(m)[17];
}

procedure R()
  modifies m;
{
  m[17] := !m[17];
  m[17] := !m[17];
  assert (forall<t> y: t :: m[y] == old(m)[y]);
}
