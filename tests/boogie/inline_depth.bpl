//pass
//error-lines:
//args: --houdini --inline-depth 1
// --inline-depth 1 (Boogie's /inlineDepth:1, houdini/test1.bpl): Foo's callees are inlined,
// so Houdini keeps b0 although it refutes b1 and b2; Main verifies through the inlined Foo.

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
  assert !g;
}

const {:existential true} b0: bool;
const {:existential true} b1: bool;
const {:existential true} b2: bool;
