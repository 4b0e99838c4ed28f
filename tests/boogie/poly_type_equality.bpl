//pass
//error-lines:
// An equality between a type parameter and another type: false unless the types agree.

const C: int;
const D: bool;
function eqC<alpha>(x: alpha) returns (bool) { x == C }
function neC<alpha>(x: alpha) returns (bool) { x != C }

procedure P()
{
  assert eqC(C);
  assert !eqC(D);
  assert neC(D) && neC(true) && neC(C + 1);
}
