//xfail: errors 3
//error-lines: 20, 26, 31
// The twin of poly_map_quantified_eq.bpl: the update at `f` may change `h1[o, f]` to 5 only,
// `Succ` is transitive only between distinct heaps, and two heaps with one equal entry need
// not be equal.
type ref;
type Field a;
type Heap = <a>[ref, Field a]a;
const f: Field int;
const g: Field bool;
function Succ(a: Heap, b: Heap): bool;
axiom (forall a, b, c: Heap :: { Succ(a, b), Succ(b, c) } a != c ==> Succ(a, b) && Succ(b, c) ==> Succ(a, c));

procedure Update(h0: Heap, o: ref) returns (h1: Heap)
  ensures h1[o, f] == 5 && h1[o, g] == !h0[o, g];
  ensures (forall p: ref :: p != o ==> h1[p, f] == h0[p, f]);
{
  h1 := h0;
  h1[o, f] := 5;
}

procedure Chain(a: Heap, b: Heap, c: Heap)
  requires Succ(a, b) && Succ(b, c);
  ensures Succ(a, c);
{
}

procedure Same(h: Heap, k: Heap, o: ref)
{
  assume k[o, g] == h[o, g];
  assert k == h;
}
