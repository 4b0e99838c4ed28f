//pass
//error-lines:
// Integer operators: + - * div mod, unary minus and the relations. `div`/`mod` are SMT-LIB's
// Euclidean division: the remainder is never negative.

procedure IntOps(a: int, b: int)
  requires b > 0;
{
  assert 7 div 2 == 3 && 7 mod 2 == 1;
  assert -7 div 2 == -4 && -7 mod 2 == 1;
  assert 7 div -2 == -3 && 7 mod -2 == 1;
  assert (a + b) - b == a;
  assert a * 2 == a + a;
  assert -(-a) == a;
  assert 0 <= a mod b && a mod b < b;
  assert a == b * (a div b) + a mod b;
  assert a < a + b && a <= a && a + b > a && a >= a;
  assert a != a + b;
  assert 2 + 3 * 4 == 14 && (2 + 3) * 4 == 20;
  assert 10 - 3 - 2 == 5;
}
