//xfail: errors 1
//error-lines: 26
// Twin of call_outs.bpl: DivMod is called with b == 0, violating its precondition. (After the
// failed check Boogie assumes the precondition, so the rest of Client is not reported.)

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
  var zero: int;
  zero := 0;
  call q, r := DivMod(17, zero);
  assert q == 3 && r == 2;
  call v := Oracle();
  s := q + v - 1;
}
