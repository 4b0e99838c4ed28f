//xfail: errors 1
//error-lines: 11
// Twin of recursive_inline_fn.bpl: past 64 expansions the function is uninterpreted, so the
// value of Count(100) is not known (and kivl does not claim it).

function {:inline true} Count(n: int): int
  { if n <= 0 then 0 else Count(n - 1) + 1 }

procedure P()
{
  assert Count(100) == 100;
}
