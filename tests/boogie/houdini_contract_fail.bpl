//xfail: errors 1
//error-lines: 25
//args: --houdini
// Twin of houdini_contract.bpl: the call passes -5, so candidate c1 (x > 0) is dropped, then c3
// (y > 1) cannot be proved; the assertion really fails (r == -4).

const {:existential true} c1: bool;
const {:existential true} c2: bool;
const {:existential true} c3: bool;
const {:existential true} c4: bool;

procedure Callee(x: int) returns (y: int)
  requires c1 ==> x > 0;
  requires c2 ==> x > 100;
  ensures c3 ==> y > 1;
  ensures c4 ==> y > 100;
{
  y := x + 1;
}

procedure Caller()
{
  var r: int;
  call r := Callee(-5);
  assert r > 1;
}
