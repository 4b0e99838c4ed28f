//pass
//error-lines:
// `return` from inside a loop; the postcondition is checked at every return path.

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
      idx := i;
      return;
    }
    i := i + 1;
  }
  idx := -1;
}
