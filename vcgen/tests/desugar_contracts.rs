//! The verified implementation's own contract: requires assumed at a new entry, ensures asserted
//! at every return, `old` replaced by entry snapshots.

mod desugar_common;
use desugar_common::*;
use vcgen::desugar::{prepare, Stage};

const PROG: &str = r#"
var g: int;
var h: int;
procedure P(x: int) returns (r: int)
  requires x > 0;
  free requires g >= 0;
  ensures r == old(g) + x;
  free ensures h == old(h);
  ensures {:foo} g >= old(g);
  modifies g;
{
  if (x > 10) {
    r := g + x;
    return;
  }
  g := g + 1;
  r := old(g) + x;
}
"#;

#[test]
fn entry_assumes_every_requires_after_snapshotting_old_globals() {
    let imp = vc(PROG, "P");
    let entry = &imp.blocks[0];
    assert_eq!(entry.label.name, "PreconditionGeneratedEntry");
    assert_eq!(lines(entry), vec!["old$g := g;", "assume x > 0;", "assume g >= 0;"]);
    assert_eq!(succs(entry), vec!["anon0".to_string()]);
    // Only globals under `old` in the body or a checked ensures get a snapshot.
    let locals: Vec<&str> = imp.locals.iter().map(|l| l.name.as_str()).collect();
    assert!(locals.contains(&"old$g") && !locals.contains(&"old$h"), "{locals:?}");
}

#[test]
fn every_return_asserts_the_non_free_ensures_pointing_at_the_return() {
    let imp = vc(PROG, "P");
    let posts: Vec<_> = checks(&imp).into_iter().filter(|c| c.0 == "postcondition").collect();
    // Two returns (the explicit one and the end of the body), two non-free ensures each.
    assert_eq!(posts.len(), 4, "{}", show(&imp));
    let ens1 = span_of(PROG, "ensures r == old(g) + x;");
    let ens2 = span_of(PROG, "ensures {:foo} g >= old(g);");
    let ret = span_of(PROG, "return;");
    let mut at_return: Vec<_> = posts.iter().filter(|c| c.2 == ret).collect();
    at_return.sort_by_key(|c| c.1.unwrap().start);
    assert_eq!(at_return.len(), 2);
    assert_eq!(at_return[0].1, Some(ens1));
    assert_eq!(at_return[0].3, "r == old$g + x");
    assert_eq!(at_return[1].1, Some(ens2));
    let end = ivl::ast::Span::new(PROG.rfind('}').unwrap(), PROG.rfind('}').unwrap() + 1);
    assert_eq!(posts.iter().filter(|c| c.2 == end).count(), 2);
    // The ensures' own attributes stay on the assert.
    let text = show(&imp);
    assert!(text.contains("{:foo}"), "{text}");
    // The free ensures is never checked.
    assert!(!posts.iter().any(|c| c.3.contains("h ==")));
}

#[test]
fn old_in_the_body_reads_the_snapshot() {
    let imp = vc(PROG, "P");
    assert!(all_lines(&imp).contains(&"r := old$g + x;".to_string()), "{}", show(&imp));
}

#[test]
fn implementation_formals_may_be_renamed() {
    let text = r#"
procedure Q(a: int) returns (b: int);
  requires a > 0;
  ensures b > a;
implementation Q(x: int) returns (y: int) { y := x + 1; }
"#;
    let imp = vc(text, "Q");
    assert_eq!(lines(&imp.blocks[0]), vec!["assume x > 0;"]);
    let posts: Vec<_> = checks(&imp).into_iter().filter(|c| c.0 == "postcondition").collect();
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].3, "y > x");
}

#[test]
fn old_of_a_local_is_its_current_value_and_quantified_old_keeps_binders() {
    let text = r#"
var m: [int]int;
procedure R(n: int) returns (k: int)
  ensures (forall i: int :: m[i] == old(m[i]) + 1);
  modifies m;
{
  k := n;
  assert old(k) == k;
  m := (lambda i: int :: m[i] + 1);
}
"#;
    let imp = vc(text, "R");
    let all = all_lines(&imp);
    assert!(all.contains(&"assert k == k;".to_string()), "{all:?}");
    let posts: Vec<_> = checks(&imp).into_iter().filter(|c| c.0 == "postcondition").collect();
    assert_eq!(posts[0].3, "(forall i: int :: m[i] == old$m[i] + 1)");
}

#[test]
fn where_clauses_hold_at_entry_and_after_havoc() {
    let text = r#"
var g: int where g > 0;
procedure W() modifies g; { var x: int where x < 5; havoc x; }
"#;
    let imp = vc(text, "W");
    assert_eq!(lines(&imp.blocks[0]), vec!["assume g > 0;", "assume x < 5;"]);
    assert_eq!(lines(&imp.blocks[1]), vec!["havoc x;", "assume x < 5;"]);
}

#[test]
fn procedures_without_body_inline_procedures_and_verify_false_are_not_verified() {
    let text = r#"
procedure A();
procedure {:inline 1} B() { }
procedure C();
implementation {:inline 2} C() { }
procedure {:verify false} D() { }
procedure E() { call B(); call C(); }
"#;
    let names: Vec<String> = prepare(&parse(text)).unwrap().into_iter().map(|v| v.imp.name.name.to_string()).collect();
    assert_eq!(names, vec!["E"]);
}

#[test]
fn stages_can_be_stopped_early() {
    let lowered = vc_at(PROG, "P", Stage::Lowered);
    assert_eq!(lowered.blocks[0].label.name, "anon0");
    let contracts = vc_at(PROG, "P", Stage::Contracts);
    assert_eq!(contracts.blocks[0].label.name, "PreconditionGeneratedEntry");
}

#[test]
fn desugared_program_prints_and_parses_again() {
    let out = vcgen::desugar::desugared_program(&parse(PROG), &Default::default()).unwrap();
    let text = ivl::printer::print_program(&out);
    let (reparsed, d) = ivl::parser::parse_program(&text);
    assert!(d.is_empty(), "{text}\n{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>());
    assert_eq!(reparsed.implementations().count(), 1);
    assert!(ivl::check::check_program(&reparsed).is_empty(), "{text}");
}

#[test]
fn inline_attribute_without_depth_is_verified_and_called_by_contract() {
    let text = r#"
procedure {:inline} I() ensures true; { }
procedure main() { call I(); }
"#;
    let names: Vec<String> = prepare(&parse(text)).unwrap().into_iter().map(|v| v.imp.name.name.to_string()).collect();
    assert_eq!(names, vec!["I", "main"]);
    assert_eq!(all_lines(&vc(text, "main")), vec!["assume true;"]);
}

#[test]
fn candidates_can_be_dropped() {
    let text = r#"
procedure P(x: int)
  requires {:candidate} x > 0;
  ensures {:candidate} x > 1;
{
  var i: int;
  while (i < x) invariant {:candidate} i >= 0; invariant i >= -1 || true; { i := i + 1; }
  assert {:candidate} i == x;
}
"#;
    let keep = vc(text, "P");
    assert_eq!(checks(&keep).len(), 6, "{}", show(&keep));
    let opts = vcgen::desugar::DesugarOptions { drop_candidates: true, ..Default::default() };
    let dropped = vcgen::desugar::prepare_with_options(&parse(text), &opts).unwrap().remove(0).imp;
    let c = checks(&dropped);
    assert_eq!(c.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), vec!["invariant-entry", "invariant-maintained"]);
    assert!(c.iter().all(|c| c.3 == "i >= -1 || true"));
    assert!(!all_lines(&dropped).iter().any(|l| l.contains("x > 0")));
}

#[test]
fn kernel_programs_get_their_modifies_inferred() {
    let text = r#"
var {:group_shared} A: [int]int;
procedure Write(i: int) { A[i] := 0; }
procedure {:kernel} K() { call Write(1); }
"#;
    let imp = vc(text, "K");
    assert_eq!(all_lines(&imp), vec!["havoc A;"], "{}", show(&imp));
}
