//pass
//error-lines:
// lambda expressions as map values, applied directly and through variables.

procedure Lambdas(n: int)
{
  var sq: [int]int;
  var ge: [int]bool;
  var shift: [int]int;
  sq := (lambda i: int :: i * i);
  assert sq[3] == 9 && sq[-3] == 9;
  ge := (lambda i: int :: i >= n);
  assert ge[n] && !ge[n - 1];
  assert (lambda i: int :: i + n)[2] == n + 2;
  shift := (lambda i: int :: sq[i + 1]);
  assert shift[2] == 9;
  assert sq[0 := 5][0] == 5 && sq[0 := 5][1] == 1;
}
