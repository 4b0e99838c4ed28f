//pass
//error-lines:
// `{:never_pattern}` functions and `{:nopats}` terms are no triggers; the quantifier is still
// instantiated through the other terms.

function {:never_pattern} f(x: int): int;
function g(x: int): int;
function h(x: int): int;

procedure UsesG()
{
  assume (forall x: int :: f(x) > 0 && g(x) > 0);
  assert g(3) > 0;
}

procedure UsesH()
{
  assume (forall x: int :: {:nopats g(x)} g(x) > 0 && h(x) > 0);
  assert h(4) > 0;
}
