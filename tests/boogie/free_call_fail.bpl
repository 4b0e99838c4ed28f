//xfail: errors 2
//error-lines: 20, 21
// Twin of free_call.bpl: after a `free call` the precondition is not assumed (the assertion
// of `k > 0` fails); a plain `call` checks the precondition `requires false`.

var g: int;

procedure Set(v: int) returns (old_g: int);
  requires v > 0;
  requires false;
  modifies g;
  ensures g == v && old_g == old(g);

procedure Caller(k: int)
  modifies g;
{
  var r: int;
  g := 1;
  free call r := Set(k);
  assert k > 0;
  call r := Set(5);
  assert g == 5 && r == k;
}
