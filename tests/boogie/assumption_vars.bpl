//pass
//error-lines:
// Assumption variables (Boogie's `{:assumption}`): a local one starts true, `a := a && e`
// strengthens it, and `havoc` may only make it stronger (the new value implies the old).

procedure StartsTrue()
{
  var {:assumption} a: bool;
  assert a;
}

procedure Strengthened(n: int)
{
  var {:assumption} a: bool;
  a := a && 0 <= n;
  assert a ==> n >= 0;
}

procedure HavocWeakensNothing(c: bool)
{
  var {:assumption} a: bool;
  var before: bool;
  a := a && c;
  before := a;
  havoc a;
  assert a ==> before;
  while (*)
  {
    havoc a;
  }
  assert a ==> c;
}
