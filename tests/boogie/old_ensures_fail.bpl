//xfail: errors 1
//error-lines: 17
// Twin of old_ensures.bpl: arr[n] receives the old value of x, not the new one (they differ
// when n != 0).

var x: int;
var arr: [int]int;

procedure Bump(n: int)
  requires n >= 0;
  modifies x, arr;
  ensures x == old(x) + n;
  ensures arr[n] == x;
{
  arr[n] := x;
  x := x + n;
}

procedure Twice()
  modifies x, arr;
  ensures x == old(x) + 3;
{
  call Bump(1);
  call Bump(2);
}
