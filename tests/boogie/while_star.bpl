//pass
//error-lines:
// `while (*)` (nondeterministic loop) left by `break`.

procedure Nondet() returns (x: int)
  ensures 0 <= x && x <= 10;
{
  x := 0;
  while (*)
    invariant 0 <= x && x <= 10;
  {
    if (x == 10) {
      break;
    }
    x := x + 1;
  }
}
