//! Values and expressions: bit-vectors and their built-ins, unbounded integers, reals, maps
//! (nested, stores, lambdas, arbitrary defaults), functions, axioms and quantifiers — checked
//! through the sequential oracle `run_procedure` and through kernels.

mod interleaving_common;
use gpu_passes::interleaving::{run_procedure, InputValue, Inputs, RunOutcome, Value};
use interleaving_common::*;
use ivl::diag::ErrorKind;

fn completed(text: &str, proc: &str, inputs: &Inputs) -> gpu_passes::interleaving::FinalState {
    match run_procedure(&prepare(text), proc, inputs) {
        RunOutcome::Completed(f) => f,
        o => panic!("{o:#?}"),
    }
}

fn ints(params: &[(&str, i64)]) -> Inputs {
    Inputs {
        params: params.iter().map(|(n, v)| (n.to_string(), InputValue::Int((*v).into()))).collect(),
        ..Inputs::default()
    }
}

const BV: &str = r#"
function {:bvbuiltin "bvadd"} BV8_ADD(bv8, bv8) returns (bv8);
function {:bvbuiltin "bvmul"} BV8_MUL(bv8, bv8) returns (bv8);
function {:bvbuiltin "bvsdiv"} BV8_SDIV(bv8, bv8) returns (bv8);
function {:bvbuiltin "bvsrem"} BV8_SREM(bv8, bv8) returns (bv8);
function {:bvbuiltin "bvlshr"} BV8_LSHR(bv8, bv8) returns (bv8);
function {:bvbuiltin "bvashr"} BV8_ASHR(bv8, bv8) returns (bv8);
function {:bvbuiltin "bvslt"} BV8_SLT(bv8, bv8) returns (bool);
function {:bvbuiltin "bvult"} BV8_ULT(bv8, bv8) returns (bool);
function {:bvbuiltin "sign_extend 8"} BV8_SEXT16(bv8) returns (bv16);
function {:bvbuiltin "zero_extend 8"} BV8_ZEXT16(bv8) returns (bv16);
function {:bvbuiltin "bvudiv"} BV8_UDIV(bv8, bv8) returns (bv8);

procedure p() returns (a: bv8, m: bv8, d: bv8, r: bv8, l: bv8, s: bv8, c: bv16, x: bv4, lt: bool, ult: bool,
                       se: bv16, ze: bv16, z: bv8)
{
  a := BV8_ADD(200bv8, 100bv8);
  m := BV8_MUL(16bv8, 17bv8);
  d := BV8_SDIV(249bv8, 2bv8);
  r := BV8_SREM(249bv8, 2bv8);
  l := BV8_LSHR(128bv8, 3bv8);
  s := BV8_ASHR(128bv8, 3bv8);
  c := 171bv8 ++ 205bv8;
  x := 171bv8[8:4];
  lt := BV8_SLT(255bv8, 1bv8);
  ult := BV8_ULT(255bv8, 1bv8);
  se := BV8_SEXT16(254bv8);
  ze := BV8_ZEXT16(254bv8);
  z := BV8_UDIV(7bv8, 0bv8);
}
"#;

#[test]
fn bit_vector_builtins_follow_smtlib() {
    let f = completed(BV, "p", &Inputs::default());
    let bv = |w, v| Value::Bv(w, v);
    assert_eq!(f.out("a"), Some(&bv(8, 44)));
    assert_eq!(f.out("m"), Some(&bv(8, 16)));
    assert_eq!(f.out("d"), Some(&bv(8, 253))); // -7 / 2 = -3
    assert_eq!(f.out("r"), Some(&bv(8, 255))); // -7 rem 2 = -1
    assert_eq!(f.out("l"), Some(&bv(8, 16)));
    assert_eq!(f.out("s"), Some(&bv(8, 240)));
    assert_eq!(f.out("c"), Some(&bv(16, 0xabcd)));
    assert_eq!(f.out("x"), Some(&bv(4, 0xa)));
    assert_eq!(f.out("lt"), Some(&Value::Bool(true)));
    assert_eq!(f.out("ult"), Some(&Value::Bool(false)));
    assert_eq!(f.out("se"), Some(&bv(16, 0xfffe)));
    assert_eq!(f.out("ze"), Some(&bv(16, 0xfe)));
    assert_eq!(f.out("z"), Some(&bv(8, 255)));
}

#[test]
fn kernels_with_bit_vector_thread_ids() {
    let k = r#"
const {:local_id_x} lid: bv32;
const {:group_size_x} gsz: bv32;
var {:group_shared} A: [bv32]bv32;
function {:bvbuiltin "bvadd"} ADD(bv32, bv32) returns (bv32);
function {:bvbuiltin "bvurem"} UREM(bv32, bv32) returns (bv32);
procedure {:kernel} k()
{
  A[lid] := ADD(lid, 1bv32);
  barrier;
  assert A[UREM(ADD(lid, 1bv32), gsz)] == ADD(UREM(ADD(lid, 1bv32), gsz), 1bv32);
}
"#;
    let s = many(k, &cfg(&[8], &[1]), 50);
    assert!(s.error.is_none(), "{:#?}", s.error);
    assert_eq!(s.completed, 50);
}

#[test]
fn unbounded_integers_do_not_overflow() {
    let p = r#"
procedure p(x: int) returns (y: int, q: int, r: int)
{
  y := x * x * x * x * x * x;
  q := (0 - 7) div 2;
  r := (0 - 7) mod 2;
}
"#;
    let f = completed(p, "p", &ints(&[("x", 1 << 40)]));
    let Some(Value::BigInt(b)) = f.out("y") else { panic!("{:?}", f.out("y")) };
    assert_eq!(b.to_string(), (num_bigint::BigInt::from(1u64 << 40)).pow(6).to_string());
    assert_eq!(f.out("q"), Some(&Value::Int(-4)));
    assert_eq!(f.out("r"), Some(&Value::Int(1)));
}

#[test]
fn reals_are_exact() {
    let p = r#"
procedure p() returns (b: bool)
{
  b := 0.1 + 0.2 == 0.3 && 1.0 / 3.0 * 3.0 == 1.0;
}
"#;
    assert_eq!(completed(p, "p", &Inputs::default()).out("b"), Some(&Value::Bool(true)));
}

#[test]
fn maps_nested_stores_and_lambdas() {
    let p = r#"
var M: [int][int]int;
procedure p() returns (a: int, b: int, same: bool, c: int, e: bool)
  modifies M;
{
  var L: [int]int;
  var K: [int]int;
  M[1][2] := 5;
  M[1][3] := 6;
  a := M[1][2] + M[1][3];
  L := K[4 := 9];
  b := L[4];
  same := L[7] == K[7] && L != K;
  L := (lambda i: int :: i * a);
  c := L[3];
  e := M[0][0] == M[0][0] && K == K[4 := K[4]];
}
"#;
    let f = completed(p, "p", &Inputs::default());
    assert_eq!(f.out("a"), Some(&Value::Int(11)));
    assert_eq!(f.out("b"), Some(&Value::Int(9)));
    assert_eq!(f.out("same"), Some(&Value::Bool(true)));
    assert_eq!(f.out("c"), Some(&Value::Int(33)));
    assert_eq!(f.out("e"), Some(&Value::Bool(true)));
}

#[test]
fn functions_with_bodies_and_uninterpreted_ones() {
    let p = r#"
function sq(x: int): int { x * x }
function {:inline} twice(x: int): int { x + x }
function f(int): int;
axiom f(3) == 10;
procedure p(n: int) returns (a: int, same: bool, fixed: int)
{
  a := twice(sq(n));
  same := f(n) == f(n);
  fixed := f(3);
}
"#;
    let f = completed(p, "p", &ints(&[("n", 5)]));
    assert_eq!(f.out("a"), Some(&Value::Int(50)));
    assert_eq!(f.out("same"), Some(&Value::Bool(true)));
    assert_eq!(f.out("fixed"), Some(&Value::Int(10)));
}

#[test]
fn constants_get_the_values_axioms_define() {
    let p = r#"
const N: int;
const M: int;
axiom N == 4;
axiom M == N * 2;
axiom M > 0;
procedure p() returns (m: int)
{
  m := M;
}
"#;
    assert_eq!(completed(p, "p", &Inputs::default()).out("m"), Some(&Value::Int(8)));
}

#[test]
fn bounded_quantifiers_are_enumerated_and_unbounded_ones_are_unsupported() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  A[local_id_x] := 0;
  barrier;
  if (local_id_x == 0) {
    assert (forall j: int :: 0 <= j && j < group_size_x ==> A[j] == 0);
    assert (exists j: int :: 0 <= j && j < group_size_x && A[j] == 0);
    assert (forall b: bv4 :: b == b);
  }
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 20);
    assert!(s.error.is_none() && s.invalid.is_none(), "{:#?} {:#?}", s.error, s.invalid);
    let bad = r#"
procedure {:kernel} k()
{
  assert (forall j: int :: j * j >= 0);
}
"#;
    let s = many(bad, &cfg(&[1], &[1]), 1);
    let d = s.invalid.expect("unsupported");
    assert_eq!(d[0].kind, ErrorKind::Unsupported);
    assert!(d[0].message.contains("kivl run"), "{}", d[0].message);
}

#[test]
fn uninitialised_memory_is_arbitrary_but_fixed_within_a_run() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  var a: int;
  var b: int;
  a := A[100 + local_id_x];
  b := A[100 + local_id_x];
  assert a == b;
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 100);
    assert!(s.error.is_none(), "{:#?}", s.error);
    // ... and not always the same across runs.
    let k2 = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  assert A[5] == 0;
}
"#;
    assert!(many(k2, &cfg(&[1], &[1]), 100).error.is_some());
}

#[test]
fn inputs_fix_parameters_and_memory() {
    let k = r#"
var {:global} A: [int]int;
procedure {:kernel} k(n: int)
{
  assert A[local_id_x] == n + local_id_x;
}
"#;
    let inputs = Inputs::from_json(r#"{"params": {"n": 10}, "memory": {"A": {"0": 10, "1": 11, "2": 12}}}"#).unwrap();
    let c = gpu_passes::interleaving::RunConfig { inputs, ..cfg(&[3], &[1]) };
    let s = many(k, &c, 20);
    assert!(s.error.is_none(), "{:#?}", s.error);
    let inputs = Inputs::from_json(r#"{"params": {"n": 10}, "memory": {"A": {"0": 10, "1": 99, "*": 12}}}"#).unwrap();
    let c = gpu_passes::interleaving::RunConfig { inputs, ..cfg(&[3], &[1]) };
    let (_, e) = many(k, &c, 1).error.expect("thread 1 sees 99");
    assert_eq!(e.threads[0].local[0], 1);
}

#[test]
fn kernel_requires_are_assumed_when_drawing_inputs() {
    let k = r#"
procedure {:kernel} k(n: int, m: int)
  requires n > 3 && n < 6;
  requires m == n * 10;
{
  assert n == 4 || n == 5;
  assert m == n * 10;
}
"#;
    let s = many(k, &cfg(&[2], &[1]), 100);
    assert!(s.error.is_none(), "{:#?}", s.error);
    assert_eq!(s.completed, 100);
}
