//pass
//error-lines:
//args: --houdini
// Houdini: candidate loop invariants guarded by existential constants. b4 and b5 are not
// inductive and are dropped; the remaining candidates prove the postcondition.

const {:existential true} b1: bool;
const {:existential true} b2: bool;
const {:existential true} b3: bool;
const {:existential true} b4: bool;
const {:existential true} b5: bool;

procedure Double(n: int) returns (s: int)
  requires n >= 0;
  ensures s == 2 * n;
{
  var i: int;
  i := 0;
  s := 0;
  while (i < n)
    invariant b1 ==> 0 <= i;
    invariant b2 ==> i <= n;
    invariant b3 ==> s == 2 * i;
    invariant b4 ==> s == i;
    invariant b5 ==> i < n;
  {
    i := i + 1;
    s := s + 2;
  }
}
