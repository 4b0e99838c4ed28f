//xfail: errors 2
//error-lines: 13, 19
// Twin of no_patterns.bpl: a term that may not be a trigger does not instantiate the
// quantifier (the assertions hold in every model, but Boogie and kivl cannot prove them).

function {:never_pattern} f(x: int): int;
function g(x: int): int;
function h(x: int): int;

procedure UsesF()
{
  assume (forall x: int :: f(x) > 0 && g(x) > 0);
  assert f(3) > 0;
}

procedure UsesNopats()
{
  assume (forall x: int :: {:nopats g(x)} g(x) > 0 && h(x) > 0);
  assert g(4) > 0;
}
