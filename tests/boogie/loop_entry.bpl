//pass
//error-lines:
// A counting loop whose invariants hold on entry and are maintained.

procedure Count(n: int) returns (s: int)
  requires n >= 0;
  ensures s == 3 * n;
{
  var i: int;
  i := 0;
  s := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant s == 3 * i;
  {
    s := s + 3;
    i := i + 1;
  }
}
