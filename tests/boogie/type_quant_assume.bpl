//pass
//error-lines:
// A type quantifier inside an assumed formula (kivl: its instances at the program's types).

type ref;
function f<a>(x: a): int;

procedure P(r: ref, i: int)
{
  assume (forall<t> x: t :: f(x) >= 0);
  assert f(r) >= 0;
  assert f(i) + f(true) >= 0;
}
