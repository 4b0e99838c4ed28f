//pass
//error-lines:
// An assertion is assumed after it is checked (Boogie's default subsumption), also when it
// says {:subsumption 0} and holds: here both hold on every path.

procedure Q(x: int)
  requires x == 2;
{
  assert {:subsumption 0} x == 2;
  assert x + 1 == 3;
}

procedure R(x: int)
{
  assert x == 2 || x != 2;
  assert {:subsumption 0} x * 1 == x;
}
