//pass
//error-lines:
// The twin of type_quant_witness_fail.bpl: after the two assumptions, what the axioms say
// of `h` at the program's types still holds.
function h<a>(x: a, s: int): bool;
axiom (forall<a> x: a, y: a :: !h(x, 1) && !h(y, 2) ==> false);
axiom (forall<a> x: a :: h(x, 0));

procedure {:inline 1} Fails(s: int)
{
  assume !(forall<a> x: a :: h(x, s));
}

procedure Main()
{
  call Fails(1);
  call Fails(2);
  assert h(7, 0) && h(true, 0);
}
