//xfail: errors 1
//error-lines: 21
// Twin of nested_loops.bpl: the inner counter is initialised once, outside the outer loop, so
// from the second outer iteration on the inner invariant `c == i * m + j` fails on entry.

procedure Grid(n: int, m: int) returns (c: int)
  requires n >= 0 && m >= 0;
  ensures c == n * m;
{
  var i, j: int;
  i := 0;
  c := 0;
  j := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant c == i * m;
    invariant 0 <= j && j <= m;
  {
    while (j < m)
      invariant 0 <= j && j <= m;
      invariant c == i * m + j;
    {
      c := c + 1;
      j := j + 1;
    }
    i := i + 1;
  }
}
