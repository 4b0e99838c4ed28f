//pass
//error-lines:
// `break L;` leaves the labelled outer loop from inside the inner loop.

procedure Search(m: [int][int]int, n: int) returns (fi: int, fj: int, found: bool)
  requires n >= 0;
  ensures found ==> m[fi][fj] == 0;
{
  var i, j: int;
  found := false;
  i := 0;
  outer:
  while (i < n)
    invariant i >= 0;
    invariant !found;
  {
    j := 0;
    while (j < n)
      invariant j >= 0;
      invariant !found;
    {
      if (m[i][j] == 0) {
        fi, fj, found := i, j, true;
        break outer;
      }
      j := j + 1;
    }
    i := i + 1;
  }
}
