//xfail: errors 1
//error-lines: 20
// A universal type quantifier negated in an assumption names a witness type. Each inlined
// call of `Fails` needs its own (a type failing `h(_, 1)`, another failing `h(_, 2)`); with
// one fresh type for both copies, the axiom made the path infeasible and kivl verified
// `assert false` (Boogie 2.4.1: 1 error). Twin: type_quant_witness.bpl.
function h<a>(x: a, s: int): bool;
// No type has both a value failing `h(_, 1)` and one failing `h(_, 2)`.
axiom (forall<a> x: a, y: a :: !h(x, 1) && !h(y, 2) ==> false);

procedure {:inline 1} Fails(s: int)
{
  assume !(forall<a> x: a :: h(x, s));
}

procedure Main()
{
  call Fails(1);
  call Fails(2);
  assert false;
}
