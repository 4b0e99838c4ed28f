//pass
//error-lines:
// A descending loop; a `free invariant` is assumed but never checked.

procedure Down(n: int) returns (k: int, steps: int)
  requires n >= 0;
  ensures k == 0 && steps == n;
{
  k := n;
  steps := 0;
  while (k > 0)
    invariant k >= 0;
    invariant k + steps == n;
    free invariant steps >= 0;
  {
    k := k - 1;
    steps := steps + 1;
  }
}
