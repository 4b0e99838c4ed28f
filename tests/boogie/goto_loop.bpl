//pass
//error-lines:
// A loop written with goto: the leading asserts of the loop-header block are its invariants.

procedure GotoLoop(n: int) returns (s: int)
  requires n >= 0;
  ensures s == 2 * n;
{
  var i: int;
  entry:
    i := 0;
    s := 0;
    goto head;
  head:
    assert 0 <= i && i <= n;
    assert s == 2 * i;
    goto body, exit;
  body:
    assume i < n;
    s := s + 2;
    i := i + 1;
    goto head;
  exit:
    assume !(i < n);
    return;
}
