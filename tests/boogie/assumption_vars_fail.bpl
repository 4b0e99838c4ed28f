//xfail: errors 3
//error-lines: 18, 27, 34
// Twin of assumption_vars.bpl: a strengthened or havocked assumption variable may be false,
// and a global one is arbitrary on entry.

var {:assumption} g: bool;

procedure StartsTrue()
{
  var {:assumption} a: bool;
  assert a;
}

procedure Strengthened(n: int)
{
  var {:assumption} a: bool;
  a := a && 0 <= n;
  assert a;
}

procedure HavocWeakensNothing(c: bool)
{
  var {:assumption} a: bool;
  var before: bool;
  a := a && c;
  havoc a;
  assert before ==> a;
}

procedure GlobalStrengthened()
  modifies g;
{
  g := g && true;
  assert g;
}
