//pass
//error-lines:
// {:inline 1}: the body of AddTo (which has no postcondition) is inlined at each call, so the
// caller can prove facts about its effect.

var total: int;

procedure {:inline 1} AddTo(x: int)
  modifies total;
{
  total := total + x;
}

procedure Main()
  modifies total;
{
  total := 0;
  call AddTo(4);
  call AddTo(5);
  assert total == 9;
}
