//xfail: errors 2
//error-lines: 20, 37
// Twin of goto_labels.bpl: the `neg` block forgets to negate (postcondition of Abs fails at
// its `return`), and the `r` block of Diamond sets z to 0 (the assertion in `join` fails).

procedure Abs(x: int) returns (y: int)
  ensures y >= 0 && (y == x || y == -x);
{
  start:
    goto pos, neg;
  pos:
    assume x >= 0;
    y := x;
    goto done;
  neg:
    assume x < 0;
    y := x;
    goto done;
  done:
    return;
}

procedure Diamond(b: bool) returns (z: int)
  ensures z == 1 || z == 2;
{
  entry:
    goto l, r;
  l:
    assume b;
    z := 1;
    goto join;
  r:
    assume !b;
    z := 0;
    goto join;
  join:
    assert z != 0;
}
