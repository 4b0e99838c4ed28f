//pass
//error-lines:
//args: --houdini
// Twin of houdini_several_fail.bpl: the four assertions hold under the candidates Houdini
// keeps (b1 and b2), so there is no failure to report.

const {:existential true} b1: bool;
const {:existential true} b2: bool;
const {:existential true} b3: bool;

procedure P(n: int) returns (s: int)
  requires n >= 0;
{
  var i: int;
  i := 0;
  s := 0;
  while (i < n)
    invariant b1 ==> 0 <= i;
    invariant b2 ==> s == 2 * i;
    invariant b3 ==> s == i;
  {
    i := i + 1;
    s := s + 2;
  }
  assert s != 15;
  assert s == 2 * i;
  assert i >= n;
  assert s >= 0;
}
