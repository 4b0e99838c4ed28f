//pass
//error-lines:
//args: --houdini
// Houdini over procedure contracts: candidate preconditions are checked at every call site
// (c2 fails at the call and is dropped), candidate postconditions in the body.

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
  call r := Callee(5);
  assert r > 1;
}
