//pass
//error-lines:
// Polymorphic map types (test21/Maps0.bpl): a heap `<a>[ref, Field a]a` selected and updated
// at `int`, `bool` and `Field int`; an update at one type leaves the other types' values alone,
// and a map equality holds of equal updates.
type ref;
type Field a;
type HeapType = <a>[ref, Field a]a;
var Heap: HeapType;
const unique count: Field int;
const unique flag: Field bool;
const unique link: Field (Field int);

procedure Bump(o: ref)
  modifies Heap;
  ensures Heap == old(Heap)[o, count := old(Heap)[o, count] + 1];
{
  Heap[o, count] := Heap[o, count] + 1;
}

procedure Client(o: ref, p: ref)
  modifies Heap;
{
  var h: HeapType;
  Heap[o, flag] := true;
  Heap[p, link] := count;
  call Bump(o);
  assert Heap[o, flag];
  assert Heap[p, Heap[p, link]] == Heap[p, count];
  h := Heap[o, count := 5];
  assert h[o, count] == 5 && h[o, flag];
  assert h[o, count := Heap[o, count]][o, count] == Heap[o, count];
}
