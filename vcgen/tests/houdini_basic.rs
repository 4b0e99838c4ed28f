//! Houdini tests: candidates refuted or kept, `{:candidate}` clauses, the printed assignment,
//! and that non-candidate failures refute nothing but are reported.

mod vc_common;

use ivl::diag::ErrorKind;
use vc_common::*;
use vcgen::engine::VerifyOptions;

fn houdini(src: &str) -> vcgen::engine::ProgramResult {
    verify_with(src, &VerifyOptions { jobs: 2, houdini: true, print_assignment: true, ..Default::default() })
}

const LOOP: &str = "\
const {:existential true} b0: bool;
const {:existential true} b1: bool;
const {:existential true} b2: bool;
procedure P() {
  var i: int;
  i := 0;
  while (i < 10)
    invariant b0 ==> i >= 0;
    invariant b1 ==> i < 10;
    invariant b2 ==> i <= 10;
  { i := i + 1; }
  assert i == 10;
}
";

#[test]
fn candidate_invariants_refuted_and_kept() {
    let r = houdini(LOOP);
    let h = r.houdini.as_ref().expect("houdini stats");
    assert_eq!(h.assignment.get("b0"), Some(&true));
    assert_eq!(h.assignment.get("b1"), Some(&false));
    assert_eq!(h.assignment.get("b2"), Some(&true));
    assert_eq!((h.candidates.len(), h.kept), (3, 2));
    assert_eq!(verdicts(&r), vec![("P".into(), "verified")]);
    assert_eq!(
        r.assignment_text.as_deref(),
        Some("Assignment computed by Houdini:\nb0 = True\nb1 = False\nb2 = True\n")
    );
}

#[test]
fn without_houdini_existentials_are_plain_constants() {
    let r = verify(LOOP);
    // b1 may be true: its invariant is not maintained; without b0/b2 the final assert fails.
    assert_eq!(verdicts(&r), vec![("P".into(), "errors")]);
    assert!(r.houdini.is_none());
}

#[test]
fn non_candidate_failures_do_not_refute_but_are_reported() {
    let src = "\
const {:existential true} c: bool;
procedure P(x: int) {
  assert x > 0;
  assert c ==> x * 0 == 0;
}
";
    let r = houdini(src);
    assert_eq!(r.houdini.as_ref().unwrap().assignment.get("c"), Some(&true));
    assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, 3)]);
}

#[test]
fn candidate_clauses_on_contracts_and_loops() {
    let src = "\
procedure Callee(x: int) returns (y: int)
  requires {:candidate} x > 0;
  requires {:candidate} x > 5;
  ensures {:candidate} y > x;
  ensures {:candidate} y < x;
{
  y := x + 1;
}
procedure Caller() {
  var r: int;
  var i: int;
  call r := Callee(3);
  i := 0;
  while (i < r)
    invariant {:candidate} i >= 0;
    invariant {:candidate} i == 0;
  { i := i + 1; }
  assert i >= 0;
}
";
    let r = houdini(src);
    let h = r.houdini.as_ref().unwrap();
    assert_eq!(h.candidates.len(), 6);
    // Kept: x > 0, y > x, i >= 0.  Refuted: x > 5 (caller passes 3), y < x, i == 0.
    assert_eq!(h.kept, 3, "{}", h.format_assignment());
    let kept_lines: Vec<usize> = h
        .origins
        .iter()
        .filter(|(n, _)| h.assignment[n])
        .map(|(_, s)| ivl::diag::SourceFile::new("t", src).line_col(s.start).0)
        .collect();
    assert_eq!(kept_lines, vec![2, 4, 15]);
    assert_eq!(verdicts(&r), vec![("Callee".into(), "verified"), ("Caller".into(), "verified")]);
}

#[test]
fn candidates_shared_between_implementations() {
    // The candidate guards Q's precondition: P refutes it (P calls Q with 0), so Q loses the
    // assumption and its own assertion fails in the final run.
    let src = "\
const {:existential true} pos: bool;
procedure Q(n: int)
  requires pos ==> n > 0;
{
  assert n != 0;
}
procedure P() {
  call Q(0);
}
";
    let r = houdini(src);
    assert_eq!(r.houdini.as_ref().unwrap().assignment.get("pos"), Some(&false));
    assert_eq!(errors(src, &r), vec![("Q".into(), ErrorKind::Assertion, 5)]);
}

#[test]
fn without_houdini_candidate_clauses_are_ignored() {
    let src = "\
procedure P() {
  var i: int;
  i := 0;
  while (i < 3)
    invariant {:candidate} i == 0;
  { i := i + 1; }
}
";
    assert_eq!(verdicts(&verify(src)), vec![("P".into(), "verified")]);
    assert_eq!(verdicts(&houdini(src)), vec![("P".into(), "verified")]);
}

#[test]
fn guards_under_predicates_are_candidates() {
    // GPUVerify's predicated invariants read `p ==> b ==> φ`.
    let src = "\
const {:existential true} b0: bool;
const {:existential true} b1: bool;
procedure P(p: bool) {
  var i: int;
  i := 0;
  while (i < 10)
    invariant p ==> b0 ==> i >= 0;
    invariant p ==> b1 ==> i < 5;
  { i := i + 1; }
}
";
    let r = houdini(src);
    let h = r.houdini.as_ref().unwrap();
    assert_eq!((h.assignment["b0"], h.assignment["b1"]), (true, false));
    assert_eq!(verdicts(&r), vec![("P".into(), "verified")]);
}

/// Houdini with one failing assertion reported per check, to count checks.
fn houdini_one_per_check(src: &str) -> vcgen::engine::ProgramResult {
    verify_with(src, &VerifyOptions { jobs: 1, houdini: true, error_limit: 1, ..Default::default() })
}

#[test]
fn candidates_false_in_the_same_state_are_refuted_by_one_check() {
    // Whatever model refutes b0 also falsifies b1 and b2 (the same condition), at the same
    // point: one failing check and one valid check, not three failing ones.
    let src = "\
const {:existential true} b0: bool;
const {:existential true} b1: bool;
const {:existential true} b2: bool;
const {:existential true} b3: bool;
procedure P(x: int) {
  assert b0 ==> x > 5;
  assert b1 ==> x - 1 > 4;
  assert b2 ==> 2 * x > 10;
  assert b3 ==> x * 0 == 0;
}
";
    let r = houdini_one_per_check(src);
    let h = r.houdini.as_ref().unwrap();
    assert_eq!(verdicts(&r), vec![("P".into(), "verified")]);
    assert_eq!((h.kept, h.checks), (1, 2), "{:?}", h.assignment);
    assert_eq!(h.assignment.get("b3"), Some(&true));
}

/// Runs Houdini on `assert b0 ==> x > 5; MIDDLE; assert b1 ==> x > 5;`, where `middle` keeps
/// every execution that reaches b1 at x > 5: the model that refutes b0 must not refute b1.
fn b0_refuted_b1_kept_across(middle: &str) -> (String, vcgen::engine::ProgramResult) {
    let src = format!(
        "const {{:existential true}} b0: bool;\nconst {{:existential true}} b1: bool;\n\
         procedure P(x: int) {{\n  assert b0 ==> x > 5;\n  {middle}\n  assert b1 ==> x > 5;\n}}\n"
    );
    let r = houdini_one_per_check(&src);
    let h = r.houdini.as_ref().unwrap();
    assert_eq!((h.assignment.get("b0"), h.assignment.get("b1")), (Some(&false), Some(&true)), "{middle}");
    (src, r)
}

#[test]
fn an_assume_between_candidates_ends_the_shared_state() {
    // A model with x <= 5 refutes b0; b1 is only reached when x > 100, where it holds.
    let (_, r) = b0_refuted_b1_kept_across("assume x > 100;");
    assert_eq!(verdicts(&r), vec![("P".into(), "verified")]);
}

#[test]
fn a_real_failure_between_candidates_ends_the_shared_state() {
    // Executions that get past the real failure on line 5 have x > 5, so b1 holds there: the
    // model that refutes b0 and fails line 5 must not refute b1.
    let (src, r) = b0_refuted_b1_kept_across("assert x > 5;");
    assert_eq!(errors(&src, &r), vec![("P".into(), ErrorKind::Assertion, 5)]);
}
