//xfail: errors 1
//error-lines: 10
// Twin of while_star.bpl: stepping by 2 from 9 reaches 11 before the `break` test sees 10.

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
    x := x + 2;
  }
}
