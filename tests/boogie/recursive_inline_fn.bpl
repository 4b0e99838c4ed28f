//pass
//error-lines:
// An `{:inline}` function whose definition calls itself (inline/expansion3.bpl): kivl expands
// it 64 levels deep and leaves the rest uninterpreted, which every solution of the definition
// satisfies (Boogie 2.4.1 stops at the first repetition: "detected expansion loop").

function {:inline true} Count(n: int): int
  { if n <= 0 then 0 else Count(n - 1) + 1 }

procedure P()
{
  assume Count(5) > 10;
  assert Count(5) > 9;
}
