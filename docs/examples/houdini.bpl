const {:existential true} b1: bool;
const {:existential true} b2: bool;

procedure p(n: int)
  requires n >= 0;
{
  var i: int;
  i := 0;
  while (i < n)
    invariant b1 ==> 0 <= i;
    invariant b2 ==> i < 0;
  {
    i := i + 1;
  }
  assert i >= 0;
}
