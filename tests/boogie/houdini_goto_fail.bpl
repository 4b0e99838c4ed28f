//xfail: errors 1
//error-lines: 36
//args: --houdini
// Twin of houdini_goto.bpl: the stride is 65, so the candidates about `mod 64` are dropped and
// the postcondition really fails (tid = 0, n = 66: the last index visited is 65).

const {:existential true} b1: bool;
const {:existential true} b2: bool;
const {:existential true} b3: bool;
const {:existential true} b4: bool;
const {:existential true} b5: bool;

procedure Strided(tid: int, n: int) returns (last: int)
  requires 0 <= tid && tid < 64;
  requires b5 ==> n >= 0;
  ensures last mod 64 == tid;
{
  var i: int;
  entry:
    i := tid;
    last := tid;
    goto head;
  head:
    assert b1 ==> i mod 64 == tid;
    assert b2 ==> last mod 64 == tid;
    assert b3 ==> i >= 0;
    assert b4 ==> i == tid;
    goto body, exit;
  body:
    assume i < n;
    last := i;
    i := i + 65;
    goto head;
  exit:
    assume !(i < n);
    return;
}
