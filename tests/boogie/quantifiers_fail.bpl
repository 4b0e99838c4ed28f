//xfail: errors 1
//error-lines: 20
// Twin of quantifiers.bpl: the last assertion quantifies one element too far (i == n).

function f(int): int;
axiom (forall x: int :: { f(x) } f(x) > x);

function g(int, int): int;
axiom (forall x: int, y: int :: { g(x, y) } g(x, y) == g(y, x));

procedure Quant(a: [int]int, n: int)
  requires (forall i: int :: { a[i] } 0 <= i && i < n ==> a[i] >= 0);
  requires n > 3;
{
  assert f(3) > 3;
  assert f(f(0)) > 1;
  assert g(1, 2) == g(2, 1);
  assert a[2] >= 0;
  assert (exists j: int :: { a[j] } 0 <= j && j < n && a[j] >= 0);
  assert (forall i: int :: { a[i] } 0 <= i && i <= n ==> a[i] >= 0);
}
