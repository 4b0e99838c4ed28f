//xfail: errors 1
//error-lines: 16
// Twin of break_label.bpl: a plain `break` leaves only the inner loop, so the outer loop goes
// on with `found` true and its invariant `!found` is not maintained.

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
        break;
      }
      j := j + 1;
    }
    i := i + 1;
  }
}
