//! End-to-end VC tests: small programs, parsed, desugared, passified, encoded for Z3 and
//! checked, with the expected verdicts, error kinds and lines.

mod vc_common;

use ivl::diag::ErrorKind;
use vc_common::*;
use vcgen::engine::{Outcome, VerifyOptions};

#[test]
fn straight_line_assert_verified() {
    let src = "procedure P() { var x: int; x := 1; x := x + 1; assert x == 2; }";
    assert_eq!(verdicts(&verify(src)), vec![("P".into(), "verified")]);
}

#[test]
fn failing_assert_reports_kind_line_and_trace() {
    let src =
        "procedure P(a: int) {\n  var x: int;\n  x := a;\n  if (x > 0) {\n    x := x - 1;\n  }\n  assert x > 0;\n}\n";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, line_of(src, "assert x > 0"))]);
    let Outcome::Errors(ds) = &r.impls[0].outcome else { panic!() };
    assert!(ds[0].notes.iter().any(|n| n.starts_with("execution trace:")), "{:?}", ds[0].notes);
}

#[test]
fn several_failures_are_reported_separately() {
    let src = "procedure P(a: int, b: int) {\n  assert a > 0;\n  assert b > 0;\n  assert a + b > 0;\n}\n";
    let r = verify(src);
    let errs = errors(src, &r);
    // The third assertion follows from the first two, which are assumed once reported.
    assert_eq!(errs, vec![("P".into(), ErrorKind::Assertion, 2), ("P".into(), ErrorKind::Assertion, 3),]);
}

#[test]
fn error_limit_caps_the_reports() {
    let src = "procedure P(a: int, b: int, c: int, d: int) {\n  assert a == 1;\n  assert b == 2;\n  assert c == 3;\n  assert d == 4;\n}\n";
    let r = verify_with(src, &VerifyOptions { jobs: 1, error_limit: 2, ..Default::default() });
    assert_eq!(errors(src, &r).len(), 2);
    let r = verify(src);
    assert_eq!(errors(src, &r).len(), 4);
}

#[test]
fn join_merges_incarnations() {
    let src = "procedure P(c: bool) returns (r: int) {\n  if (c) { r := 1; } else { r := 2; }\n  assert r == 1 || r == 2;\n  assert r == 1;\n}\n";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, 4)]);
}

#[test]
fn contracts_pre_and_postconditions() {
    let src = "\
var g: int;
procedure Inc(n: int);
  requires n > 0;
  modifies g;
  ensures g == old(g) + n;

procedure Good() modifies g; {
  call Inc(1);
}

procedure BadCall() modifies g; {
  call Inc(0);
}

procedure BadPost(x: int) returns (y: int)
  ensures y > x;
{
  y := x;
}

implementation Inc(n: int) {
  g := g + n;
}
";
    let r = verify(src);
    let mut errs = errors(src, &r);
    errs.sort();
    assert_eq!(
        errs,
        vec![
            ("BadCall".into(), ErrorKind::Precondition, line_of(src, "call Inc(0)")),
            ("BadPost".into(), ErrorKind::Postcondition, line_of(src, "  y := x;") + 1),
        ]
    );
    let Outcome::Errors(ds) = &r.impls.iter().find(|i| i.name == "BadCall").unwrap().outcome else { panic!() };
    let file = ivl::diag::SourceFile::new("t", src);
    assert_eq!(file.line_col(ds[0].related[0].span.start).0, line_of(src, "requires n > 0"));
}

#[test]
fn loop_invariants_entry_and_maintenance() {
    let src = "\
procedure Entry(n: int) {
  var i: int;
  i := n;
  while (i < 10)
    invariant i >= 0;
  { i := i + 1; }
}
procedure Maintained() {
  var i: int;
  i := 0;
  while (i < 10)
    invariant i < 5;
  { i := i + 1; }
}
procedure Good() {
  var i: int;
  i := 0;
  while (i < 10)
    invariant 0 <= i && i <= 10;
  { i := i + 1; }
  assert i == 10;
}
";
    let r = verify(src);
    let errs = errors(src, &r);
    assert!(errs.contains(&("Entry".into(), ErrorKind::InvariantEntry, line_of(src, "invariant i >= 0"))), "{errs:?}");
    assert!(
        errs.contains(&("Maintained".into(), ErrorKind::InvariantMaintained, line_of(src, "invariant i < 5"))),
        "{errs:?}"
    );
    assert_eq!(verdicts(&r)[2], ("Good".into(), "verified"));
}

#[test]
fn bitvector_builtins() {
    let src = "\
function {:bvbuiltin \"bvadd\"} ADD(bv32, bv32) : bv32;
function {:bvbuiltin \"bvmul\"} MUL(bv32, bv32) : bv32;
function {:bvbuiltin \"bvult\"} ULT(bv32, bv32) : bool;
function {:bvbuiltin \"bvslt\"} SLT(bv32, bv32) : bool;
function {:bvbuiltin \"bvlshr\"} LSHR(bv32, bv32) : bv32;
function {:bvbuiltin \"bvand\"} AND(bv32, bv32) : bv32;
function {:bvbuiltin \"zero_extend 24\"} ZEXT8(bv8) : bv32;
function {:bvbuiltin \"sign_extend 24\"} SEXT8(bv8) : bv32;
function {:bvbuiltin \"bvsrem\"} SREM(bv32, bv32) : bv32;
function {:bvbuiltin \"bvsmod\"} SMOD(bv32, bv32) : bv32;
procedure Good(x: bv32, b: bv8) {
  assert MUL(x, 2bv32) == ADD(x, x);
  assert LSHR(x, 31bv32) == 0bv32 || LSHR(x, 31bv32) == 1bv32;
  assert ULT(ZEXT8(b), 256bv32);
  assert SEXT8(255bv8) == 4294967295bv32;
  assert (x ++ b)[8:0] == b;
  assert (x ++ b)[40:8] == x;
  assert AND(x, 0bv32) == 0bv32;
  assert SREM(4294967289bv32, 2bv32) == 4294967295bv32;
  assert SMOD(4294967289bv32, 2bv32) == 1bv32;
}
procedure Overflow(x: bv32) {
  assert ULT(x, ADD(x, 1bv32));
}
";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("Overflow".into(), ErrorKind::Assertion, line_of(src, "assert ULT(x, ADD"))]);
}

#[test]
fn maps_updates_and_extensionality() {
    let src = "\
var m: [int]int;
procedure Upd(i: int, j: int) modifies m; {
  m[i] := 5;
  assert m[i] == 5;
  assert i != j ==> m[j] == old(m)[j];
}
procedure Ext(a: [int]bool, b: [int]bool) {
  assume (forall k: int :: a[k] == b[k]);
  assert a == b;
}
procedure Bad(i: int) modifies m; {
  m[i] := 5;
  assert m[i + 1] == 5;
}
";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("Bad".into(), ErrorKind::Assertion, line_of(src, "assert m[i + 1]"))]);
}

#[test]
fn nested_and_multi_argument_maps() {
    let src = "\
var n: [bv1][bv32]bv32;
var t: [int, int]bool;
procedure P(x: bv32, i: int, j: int) modifies n, t; {
  n[0bv1][x] := 7bv32;
  t[i, j] := true;
  assert n[0bv1][x] == 7bv32;
  assert t[i, j];
  t[j, i] := false;
  assert i != j ==> t[i, j];
  assert t[i, j];
}
";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, line_of(src, "assert t[i, j];\n}"))]);
}

#[test]
fn quantifiers_with_triggers() {
    let src = "\
function f(int) : int;
axiom (forall x: int :: { f(x) } f(x) > x);
procedure Good() { assert f(3) > 3; assert (exists y: int :: f(y) > 0); }
procedure Bad() { assert f(3) > 4; }
";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("Bad".into(), ErrorKind::Assertion, 4)]);
}

#[test]
fn lambda_expressions() {
    let src = "\
procedure P() {
  var m: [int]int;
  var k: [int, int]int;
  m := (lambda i: int :: i + 1);
  k := (lambda a: int, b: int :: a - b);
  assert m[3] == 4;
  assert k[5, 2] == 3;
  assert m[0] == 0;
}
";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, line_of(src, "assert m[0]"))]);
}

#[test]
fn functions_with_bodies() {
    let src = "\
function {:inline} twice(x: int) : int { x + x }
function sq(x: int) : int { x * x }
function {:inline true} isPos(x: int) : bool { x > 0 }
procedure P(a: int) {
  assert twice(a) == 2 * a;
  assert sq(3) == 9;
  assert isPos(a) ==> isPos(twice(a));
  assert isPos(sq(a));
}
";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, line_of(src, "assert isPos(sq(a))"))]);
}

#[test]
fn uninterpreted_types_and_unique_constants() {
    let src = "\
type T;
type Pair a;
const unique a: T;
const unique b: T;
const c: T;
const p: Pair int;
function first(Pair int) : int;
procedure P() {
  assert a != b;
  assert first(p) == first(p);
}
procedure Q() { assert a != c; }
";
    let r = verify(src);
    assert_eq!(verdicts(&r), vec![("P".into(), "verified"), ("Q".into(), "errors")]);
}

#[test]
fn integer_and_real_arithmetic() {
    let src = "\
procedure P() {
  assert -7 div 2 == -4;
  assert -7 mod 2 == 1;
  assert 7 mod -2 == 1;
  assert 1.5 + 1.5 == 3.0;
  assert real(3) / 2.0 == 1.5;
  assert int(2.7) == 2;
  assert 2.5e1 == 25.0;
  assert (if 1 < 2 then 3 else 4) == 3;
}
procedure Q(x: real) { assert x * x > 0.0; }
";
    let r = verify(src);
    assert_eq!(verdicts(&r), vec![("P".into(), "verified"), ("Q".into(), "errors")]);
}

#[test]
fn timeout_is_inconclusive() {
    // Factoring a 64-bit semiprime by bit-blasting: far beyond a one-second budget.
    let src = "\
function {:bvbuiltin \"bvmul\"} MUL(bv128, bv128) : bv128;
function {:bvbuiltin \"bvult\"} ULT(bv64, bv64) : bool;
function {:bvbuiltin \"zero_extend 64\"} ZEXT(bv64) : bv128;
procedure P(x: bv64, y: bv64) {
  assume ULT(1bv64, x) && ULT(1bv64, y);
  assert MUL(ZEXT(x), ZEXT(y)) != 18446743979220271189bv128;
}
";
    let start = std::time::Instant::now();
    let r = verify_with(src, &VerifyOptions { jobs: 1, timeout_secs: Some(1), ..Default::default() });
    assert!(matches!(r.impls[0].outcome, Outcome::Inconclusive(_)), "{:?}", r.impls[0].outcome);
    assert_eq!(r.exit_code(), 3);
    assert!(start.elapsed().as_secs() < 20);
}

#[test]
fn unknown_builtin_is_uninterpreted_with_a_note() {
    let src = "\
function {:builtin \"fp.add_weird\"} FADD(bv32, bv32) : bv32;
procedure P(x: bv32) {
  assert FADD(x, x) == FADD(x, x);
  assert FADD(x, 0bv32) == x;
}
";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, 4)]);
    assert!(r.notes.iter().any(|n| n.message.contains("fp.add_weird")), "{:?}", r.notes);
}

#[test]
fn parallel_results_in_program_order() {
    let mut src = String::new();
    for i in 0..12 {
        let cond = if i % 3 == 0 { "x > 0" } else { "x * x >= 0" };
        src.push_str(&format!("procedure P{i}(x: int) {{ assert {cond}; }}\n"));
    }
    let r = verify_with(&src, &VerifyOptions { jobs: 3, ..Default::default() });
    let v = verdicts(&r);
    assert_eq!(v.len(), 12);
    for (i, (name, verdict)) in v.iter().enumerate() {
        assert_eq!(name, &format!("P{i}"));
        assert_eq!(*verdict, if i % 3 == 0 { "errors" } else { "verified" });
    }
}

#[test]
fn unstructured_goto_program() {
    let src = "\
procedure P(n: int) returns (r: int) {
  entry:
    r := 0;
    goto a, b;
  a:
    assume n > 0;
    r := n;
    goto done;
  b:
    assume n <= 0;
    r := 0 - n;
    goto done;
  done:
    assert r >= 0;
    assert r > 0;
    return;
}
";
    let r = verify(src);
    assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, line_of(src, "assert r > 0"))]);
}
