//! Passification and the printed stages: the passive program has only `assume`/`assert`,
//! assigns nothing, parses back, and verifies the same; the VC prints as SMT-LIB.

mod vc_common;

use ivl::ast::*;
use ivl::blocks::BlockImpl;
use vc_common::*;
use vcgen::engine::{emit_stage, EmitStage};

const SRC: &str = "\
var g: int;
var m: [int][int]int;
procedure P(c: bool, i: int) returns (r: int) modifies g, m; {
  if (c) { r := 1; g := g + 1; } else { r := 2; havoc g; }
  m[i][i] := r;
  assert r > 0;
  assert m[i][i] == r;
  assert c ==> g == old(g) + 1;
}
";

fn passive_impls(text: &str) -> Vec<BlockImpl> {
    let program = parse(text);
    let globals: Vec<TypedIdent> = program
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var(v) => Some(v.vars.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    vcgen::desugar::prepare(&program)
        .expect("prepare")
        .iter()
        .map(|v| vcgen::passify::passify(&v.imp, &globals).expect("passify").imp)
        .collect()
}

#[test]
fn passive_form_has_only_assumes_and_asserts_in_topological_order() {
    for imp in passive_impls(SRC) {
        let index = imp.label_index();
        for (i, b) in imp.blocks.iter().enumerate() {
            for s in &b.stmts {
                assert!(matches!(s.kind, StmtKind::Assume { .. } | StmtKind::Assert { .. }), "{s:?}");
            }
            if let ivl::blocks::Terminator::Goto(ts) = &b.term {
                for t in ts {
                    assert!(index[&t.name] > i, "edge {} -> {} goes backwards", b.label.name, t.name);
                }
            }
        }
        // g: `g + 1` in one branch (g#1), havoc in the other (g#2), merged (g#3); r: literals
        // in both branches are propagated, only the merge is named (r#1); m: one update (m#1).
        let mut names: Vec<&str> = imp.locals.iter().map(|l| l.name.as_str()).filter(|n| n.contains('#')).collect();
        names.sort();
        assert_eq!(names, vec!["g#1", "g#2", "g#3", "m#1", "r#1"]);
    }
}

#[test]
fn critical_edges_get_their_own_block() {
    // `a` branches to both `b` and the join `c`; `b` also reaches `c`.
    let src = "\
procedure P(x: int) returns (r: int) {
  a: r := 0; goto b, c;
  b: r := 1; goto c;
  c: assert r == 0 || r == 1; assert r == 1; return;
}
";
    let imp = &passive_impls(src)[0];
    let labels: Vec<&str> = imp.blocks.iter().map(|b| b.label.as_str()).collect();
    assert!(labels.iter().any(|l| l.starts_with("a_to_c")), "{labels:?}");
    assert_eq!(errors(src, &verify(src)), vec![("P".into(), ivl::diag::ErrorKind::Assertion, 4)]);
}

#[test]
fn printed_passive_program_parses_back_and_verifies_the_same() {
    let program = parse(SRC);
    let text = emit_stage(&program, EmitStage::Passified, &Default::default()).expect("emit");
    let (reparsed, diags) = ivl::parser::parse_program(&text);
    assert!(diags.is_empty(), "{diags:?}\n{text}");
    for imp in reparsed.implementations() {
        for st in &imp.body.stmts {
            assert!(!matches!(st.kind, StmtKind::Assign { .. } | StmtKind::Havoc(_)), "{st:?} left in:\n{text}");
        }
    }
    let again = vcgen::engine::verify_program(&reparsed, &Default::default());
    assert_eq!(verdicts(&again), verdicts(&verify(SRC)));
    assert_eq!(verdicts(&again), vec![("P".into(), "verified")]);
}

#[test]
fn vc_prints_as_smtlib() {
    let text = emit_stage(&parse(SRC), EmitStage::Vc, &Default::default()).expect("emit");
    assert!(text.contains("; verification condition of implementation P"), "{text}");
    assert!(text.contains("(check-sat)"), "{text}");
    assert!(text.contains("(declare-fun |r#1| () Int)") || text.contains("r#1"), "{text}");
}

#[test]
fn copy_propagation_and_dead_assignments_keep_meaning() {
    let src = "\
procedure P(a: int) {
  var x, y, z: int;
  y := a;
  x := y;
  y := y + 1;
  z := a * a * a;
  z := 0;
  assert x == a;
  assert y == a + 1;
  assert z == 0;
  assert x == y;
}
";
    assert_eq!(errors(src, &verify(src)), vec![("P".into(), ivl::diag::ErrorKind::Assertion, 11)]);
    let imp = &passive_impls(src)[0];
    let names: Vec<&str> = imp.locals.iter().map(|l| l.name.as_str()).filter(|n| n.contains('#')).collect();
    // x and the first y are copies of `a`; the dead cube is dropped, 0 is propagated.
    assert_eq!(names, vec!["y#1"]);
}
