//pass
//error-lines:
// Bit-vectors: literals, wrap-around, {:bvbuiltin} functions (arithmetic, bitwise, shifts,
// unsigned and signed comparisons, extensions), concatenation `++` and extraction `e[hi:lo]`.

function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvsub"} BV32_SUB(bv32, bv32): bv32;
function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;
function {:bvbuiltin "bvand"} BV32_AND(bv32, bv32): bv32;
function {:bvbuiltin "bvor"} BV32_OR(bv32, bv32): bv32;
function {:bvbuiltin "bvxor"} BV32_XOR(bv32, bv32): bv32;
function {:bvbuiltin "bvnot"} BV32_NOT(bv32): bv32;
function {:bvbuiltin "bvneg"} BV32_NEG(bv32): bv32;
function {:bvbuiltin "bvshl"} BV32_SHL(bv32, bv32): bv32;
function {:bvbuiltin "bvlshr"} BV32_LSHR(bv32, bv32): bv32;
function {:bvbuiltin "bvashr"} BV32_ASHR(bv32, bv32): bv32;
function {:bvbuiltin "bvudiv"} BV32_UDIV(bv32, bv32): bv32;
function {:bvbuiltin "bvurem"} BV32_UREM(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "bvslt"} BV32_SLT(bv32, bv32): bool;
function {:bvbuiltin "bvsge"} BV32_SGE(bv32, bv32): bool;
function {:bvbuiltin "zero_extend 24"} BV8_ZEXT32(bv8): bv32;
function {:bvbuiltin "sign_extend 24"} BV8_SEXT32(bv8): bv32;

procedure BvOps(x: bv32)
{
  assert BV32_ADD(4294967295bv32, 1bv32) == 0bv32;
  assert BV32_MUL(x, 2bv32) == BV32_SHL(x, 1bv32);
  assert BV32_AND(x, BV32_NOT(x)) == 0bv32;
  assert BV32_XOR(x, x) == 0bv32 && BV32_OR(x, 0bv32) == x && BV32_SUB(x, x) == 0bv32;
  assert BV32_NEG(1bv32) == 4294967295bv32;
  assert BV32_LSHR(128bv32, 3bv32) == 16bv32;
  assert BV32_ASHR(4294967280bv32, 2bv32) == 4294967292bv32;
  assert BV32_UDIV(100bv32, 7bv32) == 14bv32 && BV32_UREM(100bv32, 7bv32) == 2bv32;
  assert BV32_ULT(1bv32, 4294967295bv32) && BV32_SLT(4294967295bv32, 1bv32);
  assert BV32_SGE(x, x);
  assert BV8_ZEXT32(255bv8) == 255bv32 && BV8_SEXT32(255bv8) == 4294967295bv32;
  assert 1bv4 ++ 0bv4 == 16bv8;
  assert 258bv16[8:0] == 2bv8 && 258bv16[16:8] == 1bv8;
  assert x[32:16] ++ x[16:0] == x;
  assert x[1:0] == 0bv1 ==> BV32_UREM(x, 2bv32) == 0bv32;
}
