//pass
//error-lines:
// if / else if / else chains and the nondeterministic `if (*)`.

procedure Sign(x: int) returns (s: int)
  ensures x > 0 ==> s == 1;
  ensures x == 0 ==> s == 0;
  ensures x < 0 ==> s == -1;
{
  if (x > 0) {
    s := 1;
  } else if (x == 0) {
    s := 0;
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
    r := 2;
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
