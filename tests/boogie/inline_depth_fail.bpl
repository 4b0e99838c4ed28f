//xfail: errors 1
//error-lines: 36
//args: --houdini --inline-depth 1
// Twin of inline_depth.bpl: g is false after the inlined Foo, so asserting g fails;
// without the inlining Houdini would refute b0 and Main would fail for want of a contract.

var g: bool;

procedure Foo()
  modifies g;
  ensures b0 ==> (!old(g) ==> old(g) == g);
{
  call Acquire();
  call Release();
}

procedure Acquire()
  modifies g;
  ensures b1 ==> old(g) == g;
{
  g := true;
}

procedure Release()
  modifies g;
  ensures b2 ==> old(g) == g;
{
  g := false;
}

procedure Main()
  modifies g;
{
  g := false;
  call Foo();
  assert g;
}

const {:existential true} b0: bool;
const {:existential true} b1: bool;
const {:existential true} b2: bool;
