//pass
//error-lines:
// `assert {:verified_under A} e` checks e only where A is false (`A || e`); several such
// attributes are a conjunction (test2/AssertVerifiedUnder0.bpl).

procedure Skipped()
{
  assert {:verified_under true} false;
}

procedure Guarded(p: bool, a: bool)
  requires !a ==> p;
{
  assert {:verified_under a} p;
  assert {:verified_under a} {:verified_under true} p;
}
