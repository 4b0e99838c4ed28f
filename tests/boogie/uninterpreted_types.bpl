//pass
//error-lines:
// Uninterpreted types, unique constants, axioms over them, and type synonyms.

type Color;
const unique Red: Color;
const unique Green: Color;
const unique Blue: Color;
function next(Color): Color;
axiom next(Red) == Green && next(Green) == Blue && next(Blue) == Red;
axiom (forall c: Color :: { next(c) } c == Red || c == Green || c == Blue);

type Word = bv16;
type Table = [Color]Word;

const Size: int;
axiom Size == 16;

procedure Colors(c: Color, t: Table)
{
  var w: Word;
  assert Red != Green && Green != Blue;
  assert next(next(next(Red))) == Red;
  assert c != Red && c != Green ==> next(c) == Red;
  w := t[Blue];
  assert w == t[next(Green)];
  assert Size * 2 == 32;
}
