//xfail: errors 4
//error-lines: 26, 27, 28, 29
//args: --houdini
// Houdini stops at a real failure and then reports every failing assertion under the assignment
// it reached (up to the error limit): four here, each false for some n. With two solver threads
// (`--portfolio`, `--split-vc`) the failures are gathered from shares of the VC in parallel.

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
  assert s != 14;
  assert s != 16;
  assert i != 9;
  assert s != 20;
}
