//pass
//error-lines:
// old() in postconditions, on scalars, maps and map elements; a quantified frame condition.

var x: int;
var arr: [int]int;

procedure Bump(n: int)
  requires n >= 0;
  modifies x, arr;
  ensures x == old(x) + n;
  ensures (forall i: int :: { arr[i] } i != n ==> arr[i] == old(arr)[i]);
  ensures arr[n] == old(x);
  ensures old(x + n) == x;
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
