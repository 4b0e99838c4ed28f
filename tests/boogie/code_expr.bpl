//pass
//error-lines:
// Code expressions |{ ... }|: goto as a conjunction over the targets, havoc, map updates, an
// assert inside, calls of {:inline} procedures, and Boogie's two readings of a code expression
// (proved: every path returns true; assumed or assigned: some path does).

var g: int;

procedure {:inline 1} Inc(a: int) returns (r: int)
  requires a >= 0;
  ensures r > a;
{
  r := a + 1;
}

procedure Paths(x: int)
  requires x > 0;
{
  assert |{ var y: int; A: y := x; goto B, C; B: assume y > 1; return y >= 2; C: return y != 0; }|;
  assert |{ var z: int; A: havoc z; assume z > x; return z > 0; }|;
  assert |{ var m: [int]int; A: m[x] := 5; assert m[x] == 5; return m[x] > 0; }|;
  assert x > 5 ==> |{ var y: int; A: y := x - 5; return y > 0; }|;
}

procedure Calls()
  modifies g;
{
  var b: bool;
  g := 3;
  assert |{ var r: int; A: call r := Inc(g); return r == 4; }|;
  b := |{ var r: int; A: havoc r; assume r == 6; return r > 5; }|;
  assert b;
  assert (forall k: int :: k >= 0 ==> |{ var r: int; A: call r := Inc(k); return r == k + 1; }|);
}

procedure Readings()
{
  // Assumed, a choice means "for some value": this assumes nothing false.
  assume |{ var z: int; A: return z == 7; }|;
  // Under `!` in an assumption the reading is "for all values" (false), so this assumes true.
  assume !|{ var z: int; A: return z == 7; }|;
  assert |{ var z: int; A: return z == 7 ==> z > 6; }|;
}
