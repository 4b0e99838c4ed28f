//xfail: errors 1
//error-lines: 14
// Twin of loop_maint.bpl: the body decrements k by 2, so `k >= 0` holds on entry but is not
// maintained (k == 1 becomes -1).

procedure Down(n: int) returns (k: int, steps: int)
  requires n >= 0;
  ensures k <= 0;
{
  k := n;
  steps := 0;
  while (k > 0)
    invariant k >= -1;
    invariant k >= 0;
    free invariant steps >= 0;
  {
    k := k - 2;
    steps := steps + 1;
  }
}
