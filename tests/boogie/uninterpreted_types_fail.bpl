//xfail: errors 1
//error-lines: 22
// Twin of uninterpreted_types.bpl: Red and Blue are distinct (unique), so next(Red) == Blue
// contradicts the axiom next(Red) == Green.

type Color;
const unique Red: Color;
const unique Green: Color;
const unique Blue: Color;
function next(Color): Color;
axiom next(Red) == Green && next(Green) == Blue && next(Blue) == Red;

type Word = bv16;
type Table = [Color]Word;

procedure Colors(c: Color, t: Table)
{
  var w: Word;
  assert Red != Green && Green != Blue;
  w := t[Blue];
  assert w == t[next(Green)];
  assert next(Red) == Blue;
}
