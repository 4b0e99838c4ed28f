//xfail: errors 1
//error-lines: 11
// Twin of bool_ops.bpl: `==>` is right-associative, so p ==> q ==> r is not (p ==> q) ==> r
// (take p, r false).

procedure BoolOps(p: bool, q: bool, r: bool)
{
  assert (p ==> q) <==> (!p || q);
  assert (p <== q) <==> (q ==> p);
  assert (p && q) ==> (p || r);
  assert (p ==> q ==> r) <==> ((p ==> q) ==> r);
}
