//xfail: errors 1
//error-lines: 14
// Twin of lambda_maps.bpl: squares are never negative.

procedure Lambdas(n: int)
{
  var sq: [int]int;
  var ge: [int]bool;
  sq := (lambda i: int :: i * i);
  assert sq[3] == 9;
  ge := (lambda i: int :: i >= n);
  assert ge[n] && !ge[n - 1];
  assert (lambda i: int :: i + n)[2] == n + 2;
  assert sq[-3] == -9;
}
