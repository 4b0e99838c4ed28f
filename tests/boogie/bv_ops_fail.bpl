//xfail: errors 2
//error-lines: 16, 21
// Twin of bv_ops.bpl: 4294967295bv32 is -1 when signed, so it is not greater than 1; and a
// shift by 2 multiplies by 4, not 2 (x == 1 is a counterexample).

function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;
function {:bvbuiltin "bvshl"} BV32_SHL(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "bvslt"} BV32_SLT(bv32, bv32): bool;

procedure Signed()
{
  assert BV32_ULT(1bv32, 4294967295bv32);
  assert 1bv4 ++ 0bv4 == 16bv8;
  assert 258bv16[8:0] == 2bv8;
  assert BV32_SLT(1bv32, 4294967295bv32);
}

procedure Shift(x: bv32)
{
  assert BV32_MUL(x, 2bv32) == BV32_SHL(x, 2bv32);
}
