//xfail: errors 2
//error-lines: 17, 21
// The twin of poly_map_context.bpl: an update at `bool` does not change the `int` map, and a
// select nothing instantiates is at `int` (Boogie 2.4.1: "type parameter a is ambiguous,
// instantiating to int").
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
  assert q[13] == 5;
  q[7] := 28;
  q[5] := q[7];
  assert q[7] == 28;
  assert q[6] == 28;
}
