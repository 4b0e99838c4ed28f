//xfail: errors 1
//error-lines: 13
// Twin of type_quant_assert.bpl: h holds at int only, so not at every type (proving the
// assertion for int, the one type of the program, would be wrong).

function h<a>(x: a): bool;
axiom (forall x: int :: h(x));

procedure P()
{
  assert (forall y: int :: h(y));
  assert !(forall<t> y: t :: !h(y));
  assert (forall<t> y: t :: h(y));
}
