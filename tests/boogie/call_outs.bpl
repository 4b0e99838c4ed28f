//pass
//error-lines:
// Calls with several out-parameters, a separate `implementation`, and a body-less procedure
// (known only by its contract). Callers see only the contract.

procedure DivMod(a: int, b: int) returns (q: int, r: int);
  requires b > 0;
  ensures a == q * b + r;
  ensures 0 <= r && r < b;

implementation DivMod(a: int, b: int) returns (q: int, r: int)
{
  q := a div b;
  r := a mod b;
}

procedure Oracle() returns (v: int);
  ensures v > 0;

procedure Client() returns (s: int)
  ensures s > 2;
{
  var q, r, v: int;
  call q, r := DivMod(17, 5);
  assert q == 3 && r == 2;
  call v := Oracle();
  s := q + v - 1;
}
