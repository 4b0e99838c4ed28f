//xfail: errors 1
//error-lines: 15
// Twin of loop_entry.bpl: s starts at 1, so `s == 3 * i` does not hold on entry (it is still
// maintained by the body, so only the entry check fails).

procedure Count(n: int) returns (s: int)
  requires n >= 0;
  ensures s == 3 * n;
{
  var i: int;
  i := 0;
  s := 1;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant s == 3 * i;
  {
    s := s + 3;
    i := i + 1;
  }
}
