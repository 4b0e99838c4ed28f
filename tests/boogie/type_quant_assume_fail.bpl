//xfail: errors 1
//error-lines: 12
// Twin of type_quant_assume.bpl: f is only known to be non-negative, not positive.

type ref;
function f<a>(x: a): int;

procedure P(r: ref, i: int)
{
  assume (forall<t> x: t :: f(x) >= 0);
  assert f(i) + f(true) >= 0;
  assert f(r) > 0;
}
