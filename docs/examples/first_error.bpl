// Three procedures; the second's postcondition fails. With --stop-at-first-error the third
// is not verified (docs/guide.md, "Output").
procedure inc(x: int) returns (y: int)
  ensures y == x + 1;
{
  y := x + 1;
}

procedure dec(x: int) returns (y: int)
  ensures y > x;
{
  y := x - 1;
}

procedure twice(x: int) returns (y: int)
  ensures y == 2 * x;
{
  y := x + x;
}
