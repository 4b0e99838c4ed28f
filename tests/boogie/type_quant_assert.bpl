//pass
//error-lines:
// A type quantifier inside asserted formulas (kivl: proved for a fresh type, or for one of the
// program's types when it is existential), from a polymorphic axiom.

function g<a>(x: a): bool;
axiom (forall<a> x: a :: g(x));

procedure P()
{
  assert (forall<t> y: t :: g(y));
  assert !(forall<t> y: t :: !g(y));
  assert (forall<t> y: t :: g(y) || y != y);
}
