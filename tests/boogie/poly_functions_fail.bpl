//xfail: errors 1
//error-lines: 21
// Polymorphic functions and axioms that quantify over types (test21/PolyList.bpl):
// `Len` and `Cons` used at `int` and `bool`, one axiom instance per type.
type List a;
function Nil<a>() returns (List a);
function Cons<a>(x: a, l: List a) returns (List a);
function Len<a>(l: List a) returns (int);
function Head<a>(l: List a) returns (a);
axiom (forall<a> :: Len(Nil(): List a) == 0);
axiom (forall<a> x: a, l: List a :: Len(Cons(x, l)) == 1 + Len(l));
axiom (forall<a> x: a, l: List a :: Head(Cons(x, l)) == x);

procedure P(i: int, b: bool) {
  var li: List int;
  var lb: List bool;
  li := Cons(i, Cons(i, Nil()));
  lb := Cons(b, Nil());
  assert Len(li) == 2;
  assert Len(lb) == 1;
  assert Head(li) == i && Head(lb) == !b;
}
