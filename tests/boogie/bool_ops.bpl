//pass
//error-lines:
// Boolean operators: <==>, ==> (right-associative), <==, ||, &&, !, == and != on bool.

procedure BoolOps(p: bool, q: bool, r: bool)
{
  assert (p ==> q) <==> (!p || q);
  assert (p <== q) <==> (q ==> p);
  assert (p && q) ==> (p || r);
  assert !(p && !p);
  assert (p ==> q ==> r) <==> (p ==> (q ==> r));
  assert (p <==> q) <==> (q <==> p);
  assert p != !p;
  assert (p == q) <==> (p <==> q);
  assert p || q || !p;
}
