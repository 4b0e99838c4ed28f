//xfail: errors 2
//error-lines: 16, 28
//kivl-error-lines: 19, 29   (kivl reports an implicit return at the closing brace of the procedure; Boogie at the end of the branch or loop taken)
// Twin of if_else.bpl: the else-if branch sets 1 instead of 0, and the `else` of `if (*)`
// returns 3; Boogie reports each failing postcondition at the closing brace of the branch taken.

procedure Sign(x: int) returns (s: int)
  ensures x > 0 ==> s == 1;
  ensures x == 0 ==> s == 0;
  ensures x < 0 ==> s == -1;
{
  if (x > 0) {
    s := 1;
  } else if (x == 0) {
    s := 1;
  } else {
    s := -1;
  }
}

procedure Choice() returns (r: int)
  ensures r == 1 || r == 2;
{
  if (*) {
    r := 1;
  } else {
    r := 3;
  }
}

procedure NoElse(x: int) returns (y: int)
  ensures y >= x;
{
  y := x;
  if (x < 0) {
    y := 0;
  }
}
