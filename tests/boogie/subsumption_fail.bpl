//xfail: errors 3
//error-lines: 9, 10, 15
// Twin of subsumption.bpl without the precondition (test2/Implies.bpl): an assertion marked
// {:subsumption 0} is not assumed after it, so the next one fails on the same path (two errors
// in Q); a plain failing assertion is assumed, so the one after it cannot fail (one error in R).

procedure Q(x: int)
{
  assert {:subsumption 0} x == 2;
  assert x + 1 == 3;
}

procedure R(x: int)
{
  assert x == 2;
  assert {:subsumption 0} x + 1 == 3;
}
