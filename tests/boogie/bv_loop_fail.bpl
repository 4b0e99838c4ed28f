//xfail: errors 1
//error-lines: 17
// Twin of bv_loop.bpl: the counter steps by 2, so for odd n it jumps over n and the invariant
// `i <= n` is not maintained.

function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "bvule"} BV32_ULE(bv32, bv32): bool;

procedure Fill(n: bv32) returns (A: [bv32]bv32)
  requires BV32_ULE(n, 1024bv32);
{
  var i: bv32;
  i := 0bv32;
  while (BV32_ULT(i, n))
    invariant BV32_ULE(i, n);
  {
    A[i] := BV32_MUL(i, 2bv32);
    i := BV32_ADD(i, 2bv32);
  }
}
