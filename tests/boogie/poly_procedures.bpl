//pass
//error-lines:
// A polymorphic procedure verified once for an arbitrary type `T`, and called at `int` and
// `bool` (its contract instantiated at each call).
function Id<T>(x: T) returns (T);
axiom (forall<T> x: T :: Id(x) == x);

procedure Swap<T>(x: T, y: T) returns (a: T, b: T);
  ensures a == y && b == x;

implementation Swap<U>(x: U, y: U) returns (a: U, b: U) {
  a := Id(y);
  b := x;
}

procedure Main() {
  var i, j: int;
  var p, q: bool;
  call i, j := Swap(1, 2);
  assert i == 2 && j == 1;
  call p, q := Swap(true, false);
  assert !p && q;
}
