//xfail: errors 1
//error-lines: 17
// Twin of return_early.bpl: the early return reports i + 1, which need not hold the key; the
// postcondition fails on the path through the `return` statement.

procedure Find(a: [int]int, n: int, key: int) returns (idx: int)
  requires n >= 0;
  ensures idx == -1 || (0 <= idx && idx < n && a[idx] == key);
{
  var i: int;
  i := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
  {
    if (a[i] == key) {
      idx := i + 1;
      return;
    }
    i := i + 1;
  }
  idx := -1;
}
