//xfail: errors 1
//error-lines: 17
// Twin of goto_loop.bpl: the body adds 1 instead of 2, so the second leading assert of the
// loop header (an invariant) is not maintained.

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
    s := s + 1;
    i := i + 1;
    goto head;
  exit:
    assume !(i < n);
    return;
}
