//xfail: errors 2
//error-lines: 13, 19
// Twin of int_ops.bpl: two wrong beliefs, each in its own procedure: `div` truncating towards
// zero, and `-` being right-associative.

procedure Truncation(a: int, b: int)
  requires b > 0;
{
  assert 7 div 2 == 3 && 7 mod 2 == 1;
  assert (a + b) - b == a;
  assert 0 <= a mod b && a mod b < b;
  assert a == b * (a div b) + a mod b;
  assert -7 div 2 == -3;
}

procedure Associativity()
{
  assert 2 + 3 * 4 == 14 && (2 + 3) * 4 == 20;
  assert 10 - 3 - 2 == 9;
}
