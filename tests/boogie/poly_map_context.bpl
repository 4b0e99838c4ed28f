//pass
//error-lines:
// Polymorphic maps whose type parameter occurs only in the result (`<a>[]a`, `<a>[int]a`):
// each select is instantiated from its context (the assigned value, the other operand, `bool`
// for a condition), and every instantiation is a map of its own.
var p: <a>[]a;
var q: <a>[int]a;
var r: <a, b>[int][a]b;

procedure Context()
  modifies p, q, r;
{
  p[] := 12;
  p[] := true;
  assert p[] == 12;
  assert p[];
  q[13] := 5;
  q[13] := false;
  assert q[13] == 5 && !q[13];
  r[17] := r[17][true := 13];
  assert r[17][true] == 13;
}
