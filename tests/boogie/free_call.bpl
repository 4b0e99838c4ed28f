//pass
//error-lines:
// `free call`: the callee's preconditions are not checked at the call (Boogie 2.4.1,
// test2/FreeCall.bpl); its postconditions are still assumed afterwards.

var g: int;

procedure Set(v: int) returns (old_g: int);
  requires v > 0;
  requires false;
  modifies g;
  ensures g == v && old_g == old(g);

procedure Caller()
  modifies g;
{
  var r: int;
  g := 1;
  free call r := Set(5);
  assert g == 5 && r == 1;
  free call r := Set(-3);
  assert g == -3;
}
