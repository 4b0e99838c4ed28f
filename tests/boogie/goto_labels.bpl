//pass
//error-lines:
// Unstructured control flow: labels, multi-target goto with guarding assumes, return.

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
    y := -x;
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
    z := 2;
    goto join;
  join:
    assert z != 0;
}
