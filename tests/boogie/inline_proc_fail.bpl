//xfail: errors 1
//error-lines: 20
// Twin of inline_proc.bpl: 4 + 5 is 9, not 10.

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
  assert total == 10;
}
