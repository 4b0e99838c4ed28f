//xfail: errors 6
//error-lines: 19, 20, 27, 34, 40, 46
// Twin of code_expr.bpl: one path that returns false, a havoc that is not constrained, a
// precondition of an inlined call that fails inside a code expression, a wrong result, and
// the two readings: assuming a choice does not assume false, nor does `!` over a reading.

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
  assert |{ var y: int; A: y := x; goto B, C; B: assume y > 1; return y >= 2; C: return y != 1; }|;
  assert |{ var z: int; A: havoc z; return z > 0; }|;
}

procedure Calls()
  modifies g;
{
  g := -3;
  assert |{ var r: int; A: call r := Inc(g); return true; }|;
}

procedure Result()
  modifies g;
{
  g := 3;
  assert |{ var r: int; A: call r := Inc(g); return r == 5; }|;
}

procedure Assumed()
{
  assume |{ var z: int; A: return z == 7; }|;
  assert false;
}

procedure Negated()
{
  assume !|{ var z: int; A: return z == 7; }|;
  assert false;
}
