//pass
//error-lines:
// Let expressions `(var x := e; body)` (Boogie's LetExpr, test2/LambdaExt.bpl): several names
// bound at once, nesting, a let inside a quantifier, a lambda, a function body and a contract.

var g: int;

function Sq(x: int): int { (var y := x * x; y) }

procedure Lets(a: int, b: int) returns (r: int)
  requires (var s := a + b; s > 0);
  ensures (var d := r - a; d == b);
{
  var m: [int]int;
  r := (var t := a; t + b);
  assert (var x, y := a, b; x + y) == a + b;
  assert (var u, v := b, a; u - v) == b - a;
  assert (var p := a; (var q := p + 1; q - p)) == 1;
  assert (forall i: int :: (var j := i + 1; j > i));
  m := (lambda i: int :: (var k := i * 2; k));
  assert m[3] == 6;
  assert Sq(a) >= 0;
}

procedure UsesGlobal()
  modifies g;
  ensures (var h := old(g); g == h + 1);
{
  g := g + 1;
}
