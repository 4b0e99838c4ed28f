//xfail: errors 1
//error-lines: 13
// Twin of poly_type_equality.bpl: D is a bool, never equal to the int C.

const C: int;
const D: bool;
function eqC<alpha>(x: alpha) returns (bool) { x == C }

procedure P()
{
  assert eqC(C);
  assert !eqC(C + 1);
  assert eqC(D);
}
