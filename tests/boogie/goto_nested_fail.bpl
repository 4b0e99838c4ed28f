//xfail: errors 1
//error-lines: 24
// Twin of goto_nested.bpl: the inner counter starts at 1, so its invariant `0 <= j && j <= i`
// fails on entry to the inner loop when i == 0.

procedure Pairs(n: int) returns (c: int)
  requires n >= 0;
  ensures c >= 0;
{
  var i, j: int;
  entry:
    i := 0;
    c := 0;
    goto outer;
  outer:
    assert 0 <= i && i <= n;
    assert c >= 0;
    goto outer_body, outer_exit;
  outer_body:
    assume i < n;
    j := 1;
    goto inner;
  inner:
    assert 0 <= j && j <= i;
    assert c >= 0;
    goto inner_body, inner_exit;
  inner_body:
    assume j < i;
    c := c + j;
    j := j + 1;
    goto inner;
  inner_exit:
    assume !(j < i);
    i := i + 1;
    goto outer;
  outer_exit:
    assume !(i < n);
    return;
}
