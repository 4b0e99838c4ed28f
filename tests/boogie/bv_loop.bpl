//pass
//error-lines:
// A bit-vector loop in the style of GPUVerify's output: bv32 counter, {:bvbuiltin} comparison
// and arithmetic, invariants that rule out wrap-around.

function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "bvule"} BV32_ULE(bv32, bv32): bool;

procedure Fill(n: bv32) returns (A: [bv32]bv32)
  requires BV32_ULE(n, 1024bv32);
  ensures (forall k: bv32 :: BV32_ULT(k, n) ==> A[k] == BV32_MUL(k, 2bv32));
{
  var i: bv32;
  i := 0bv32;
  while (BV32_ULT(i, n))
    invariant BV32_ULE(i, n);
    invariant (forall k: bv32 :: BV32_ULT(k, i) ==> A[k] == BV32_MUL(k, 2bv32));
  {
    A[i] := BV32_MUL(i, 2bv32);
    i := BV32_ADD(i, 1bv32);
  }
}
