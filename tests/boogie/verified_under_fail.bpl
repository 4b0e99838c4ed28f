//xfail: errors 3
//error-lines: 8, 13, 14
// Twin of verified_under.bpl: with `false` the assertion is checked everywhere, and without
// the precondition `!a ==> p` it can fail where a is false.

procedure Skipped()
{
  assert {:verified_under false} false;
}

procedure Guarded(p: bool, a: bool)
{
  assert {:subsumption 0} {:verified_under a} p;
  assert {:verified_under a} {:verified_under true} p;
}
