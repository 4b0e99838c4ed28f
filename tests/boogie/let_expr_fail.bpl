//xfail: errors 3
//error-lines: 17, 19, 29
// Twin of let_expr.bpl: the two values swapped, a nested let that reads the outer name as
// if it were the inner one, and a postcondition off by one.

var g: int;

function Sq(x: int): int { (var y := x * x; y) }

procedure Lets(a: int, b: int) returns (r: int)
  requires (var s := a + b; s > 0);
  ensures (var d := r - a; d == b);
{
  var m: [int]int;
  r := (var t := a; t + b);
  assert (var x, y := a, b; x + y) == a + b;
  assert (var u, v := b, a; u - v) == a - b;
  assert (forall i: int :: (var j := i + 1; j > i));
  assert (var p := a; (var q := p + 1; q - p)) == 0;
  m := (lambda i: int :: (var k := i * 2; k));
  assert m[3] == 6;
}

procedure UsesGlobal()
  modifies g;
  ensures (var h := old(g); g == h + 2);
{
  g := g + 1;
}
