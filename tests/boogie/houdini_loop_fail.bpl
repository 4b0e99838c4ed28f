//xfail: errors 1
//error-lines: 22
//kivl-error-lines: 32   (kivl reports an implicit return at the closing brace of the procedure; Boogie at the end of the branch or loop taken)
//args: --houdini
// Twin of houdini_loop.bpl: the postcondition claims 3 * n, which is false for n > 0; no set of
// candidates (all of which Houdini must prove inductive) can hide the failure. Boogie reports
// the postcondition on the loop-exit path at the `while` line.

const {:existential true} b1: bool;
const {:existential true} b2: bool;
const {:existential true} b3: bool;
const {:existential true} b4: bool;
const {:existential true} b5: bool;

procedure Double(n: int) returns (s: int)
  requires n >= 0;
  ensures s == 3 * n;
{
  var i: int;
  i := 0;
  s := 0;
  while (i < n)
    invariant b1 ==> 0 <= i;
    invariant b2 ==> i <= n;
    invariant b3 ==> s == 2 * i;
    invariant b4 ==> s == 3 * i;
    invariant b5 ==> i < n;
  {
    i := i + 1;
    s := s + 2;
  }
}
