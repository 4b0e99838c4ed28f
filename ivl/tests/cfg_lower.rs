//! Lowering of structured statements to blocks: labels, successors and the statements that
//! guard each branch.

use ivl::ast::*;
use ivl::blocks::{check_kind, related_span, BlockImpl, Terminator};
use ivl::diag::{Diagnostic, ErrorKind};

fn lower_text(text: &str) -> Result<BlockImpl, Vec<Diagnostic>> {
    let (p, d) = ivl::parser::parse_program(text);
    assert!(d.is_empty(), "parse errors: {:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>());
    let imp = p.implementations().next().cloned();
    match imp {
        Some(i) => ivl::lower::lower_body(&i),
        None => ivl::lower::lower_procedure_body(p.procedures().find(|p| p.body.is_some()).expect("a body")),
    }
}

fn lower_ok(text: &str) -> BlockImpl {
    lower_text(text).unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()))
}

/// `label -> [successors]` with the printed statements of each block.
fn shape(imp: &BlockImpl) -> Vec<(String, Vec<String>, Vec<String>)> {
    imp.blocks
        .iter()
        .map(|b| {
            let stmts = b.stmts.iter().map(|s| ivl::printer::print_stmt(s).trim().to_string()).collect();
            let succ = match &b.term {
                Terminator::Goto(ts) => ts.iter().map(|t| t.name.to_string()).collect(),
                Terminator::Return => vec!["<return>".to_string()],
            };
            (b.label.name.to_string(), stmts, succ)
        })
        .collect()
}

fn s(x: &[&str]) -> Vec<String> {
    x.iter().map(|x| x.to_string()).collect()
}

#[test]
fn straight_line_is_one_block_with_implicit_return() {
    let text = "procedure P() { var x: int; x := 1; assert x == 1; }";
    let imp = lower_ok(text);
    assert_eq!(shape(&imp), vec![("anon0".into(), s(&["x := 1;", "assert x == 1;"]), s(&["<return>"]))]);
    assert_eq!(imp.locals.len(), 1);
    // The implicit return is located at the closing brace.
    assert_eq!(&text[imp.blocks[0].span.range()], "}");
}

#[test]
fn empty_body_is_one_returning_block() {
    let imp = lower_ok("procedure P() { }");
    assert_eq!(shape(&imp), vec![("anon0".into(), s(&[]), s(&["<return>"]))]);
}

#[test]
fn if_else_branches_assume_the_condition_and_join() {
    let imp = lower_ok("procedure P(c: bool) { var x: int; if (c) { x := 1; } else { x := 2; } x := 3; }");
    assert_eq!(
        shape(&imp),
        vec![
            ("anon0".into(), s(&[]), s(&["anon1_Then", "anon1_Else"])),
            ("anon1_Then".into(), s(&["assume c;", "x := 1;"]), s(&["anon1_Join"])),
            ("anon1_Else".into(), s(&["assume !c;", "x := 2;"]), s(&["anon1_Join"])),
            ("anon1_Join".into(), s(&["x := 3;"]), s(&["<return>"])),
        ]
    );
}

#[test]
fn nondeterministic_if_has_no_assumes_and_else_if_chains() {
    let imp = lower_ok("procedure P(a: bool) { var x: int; if (*) { x := 1; } else if (a) { x := 2; } }");
    let sh = shape(&imp);
    assert_eq!(sh[1], ("anon1_Then".into(), s(&["x := 1;"]), s(&["anon1_Join"])));
    assert_eq!(sh[2].1, Vec::<String>::new(), "the else of `if (*)` assumes nothing");
    assert_eq!(sh[2].2, s(&["anon2_Then", "anon2_Else"]));
    assert_eq!(sh[3].1, s(&["assume a;", "x := 2;"]));
    assert_eq!(sh[4].1, s(&["assume !a;"]));
    // The inner if joins, then jumps to the outer join.
    assert_eq!(sh[5], ("anon2_Join".into(), s(&[]), s(&["anon1_Join"])));
}

#[test]
fn while_header_leads_with_invariants() {
    let text = "procedure P(n: int) { var i: int; i := 0; \
                while (i < n) invariant {:foo} i <= n; free invariant i >= 0; { i := i + 1; } assert i == n; }";
    let imp = lower_ok(text);
    let sh = shape(&imp);
    assert_eq!(sh[0], ("anon0".into(), s(&["i := 0;"]), s(&["anon1_LoopHead"])));
    assert_eq!(sh[1].0, "anon1_LoopHead");
    assert_eq!(sh[1].2, s(&["anon1_LoopBody", "anon1_LoopDone"]));
    assert_eq!(sh[2], ("anon1_LoopBody".into(), s(&["assume i < n;", "i := i + 1;"]), s(&["anon1_LoopHead"])));
    assert_eq!(sh[3], ("anon1_LoopDone".into(), s(&["assume !(i < n);", "assert i == n;"]), s(&["<return>"])));
    // The checked invariant is an assert marked as an invariant, related to its clause, with
    // the user's attributes kept; the free one an assume.
    let head = &imp.blocks[1].stmts;
    let StmtKind::Assert { attrs, .. } = &head[0].kind else { panic!("{:?}", head[0]) };
    assert_eq!(check_kind(attrs), "invariant");
    assert_eq!(&text[related_span(attrs).unwrap().range()], "invariant {:foo} i <= n;");
    assert!(has_attr(attrs, "foo"));
    assert!(matches!(head[1].kind, StmtKind::Assume { .. }));
}

#[test]
fn break_leaves_the_loop_without_assuming_the_negated_condition() {
    let imp =
        lower_ok("procedure P(n: int) { var i: int; while (i < n) { if (i == 5) { break; } i := i + 1; } i := 0; }");
    let sh = shape(&imp);
    let then = sh.iter().find(|b| b.0 == "anon2_Then").unwrap();
    assert_eq!(then.2, s(&["anon1_LoopExit"]));
    let done = sh.iter().find(|b| b.0 == "anon1_LoopDone").unwrap();
    assert_eq!(done.1, s(&["assume !(i < n);"]));
    assert_eq!(done.2, s(&["anon1_LoopExit"]));
    let exit = sh.iter().find(|b| b.0 == "anon1_LoopExit").unwrap();
    assert_eq!(exit.1, s(&["i := 0;"]));
}

#[test]
fn labelled_break_exits_the_named_loop() {
    let imp = lower_ok(
        "procedure P() { var i: int; outer: while (*) { while (i > 0) { if (i == 3) { break outer; } break; } i := 1; } }",
    );
    let sh = shape(&imp);
    // `while (*)` has no condition: break goes straight to its done block.
    let then = sh.iter().find(|b| b.1.first().map(String::as_str) == Some("assume i == 3;")).unwrap();
    assert_eq!(sh[0].0, "outer");
    assert_eq!(then.2, s(&["anon0_LoopDone"]));
    // The inner plain `break` exits the inner loop only.
    let else_ = sh.iter().find(|b| b.1.first().map(String::as_str) == Some("assume !(i == 3);")).unwrap();
    let join = sh.iter().find(|b| b.0 == else_.2[0]).unwrap();
    assert_eq!(join.2, s(&["anon1_LoopExit"]));
}

#[test]
fn goto_form_keeps_user_labels() {
    let imp = lower_ok(
        "procedure P() { var x: int;\n start: x := 0; goto a, b;\n a: x := 1; goto end;\n b: x := 2; goto end;\n end: return; }",
    );
    assert_eq!(
        shape(&imp),
        vec![
            ("start".into(), s(&["x := 0;"]), s(&["a", "b"])),
            ("a".into(), s(&["x := 1;"]), s(&["end"])),
            ("b".into(), s(&["x := 2;"]), s(&["end"])),
            ("end".into(), s(&[]), s(&["<return>"])),
        ]
    );
}

#[test]
fn label_in_the_middle_falls_through_and_code_after_goto_gets_a_block() {
    let imp = lower_ok("procedure P() { var x: int; x := 0; L: x := 1; goto L; x := 2; }");
    assert_eq!(
        shape(&imp),
        vec![
            ("anon0".into(), s(&["x := 0;"]), s(&["L"])),
            ("L".into(), s(&["x := 1;"]), s(&["L"])),
            ("anon1".into(), s(&["x := 2;"]), s(&["<return>"])),
        ]
    );
}

#[test]
fn return_inside_if_ends_the_branch() {
    let imp = lower_ok("procedure P(c: bool) { var x: int; if (c) { return; } x := 1; }");
    let sh = shape(&imp);
    assert_eq!(sh[1], ("anon1_Then".into(), s(&["assume c;"]), s(&["<return>"])));
    assert_eq!(sh[2].2, s(&["anon1_Join"]));
}

#[test]
fn generated_labels_avoid_user_labels() {
    let imp = lower_ok("procedure P(c: bool) { anon0: goto anon1_Then; anon1_Then: if (c) { } }");
    let labels: Vec<String> = imp.blocks.iter().map(|b| b.label.name.to_string()).collect();
    let mut uniq = labels.clone();
    uniq.sort();
    uniq.dedup();
    assert_eq!(uniq.len(), labels.len(), "{labels:?}");
    assert_eq!(&labels[..2], &["anon0", "anon1_Then"]);
}

#[test]
fn goto_to_unknown_label_is_a_diagnostic() {
    let text = "procedure P() { goto nowhere; }";
    let d = lower_text(text).unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].kind, ErrorKind::Type);
    assert!(d[0].message.contains("nowhere"));
    assert_eq!(&text[d[0].primary.span.range()], "nowhere");
}

#[test]
fn duplicate_label_and_stray_break_are_diagnostics() {
    let d = lower_text("procedure P() { L: goto L; L: return; }").unwrap_err();
    assert!(d[0].message.contains("duplicate label `L`"), "{}", d[0].message);
    assert_eq!(d[0].related.len(), 1);
    let text = "procedure P() { break; }";
    let d = lower_text(text).unwrap_err();
    assert!(d[0].message.contains("outside of a loop"), "{}", d[0].message);
    assert_eq!(&text[d[0].primary.span.range()], "break;");
    let d = lower_text("procedure P() { while (*) { break nope; } }").unwrap_err();
    assert!(d[0].message.contains("nope"), "{}", d[0].message);
}

#[test]
fn lowered_body_prints_and_lowers_again_to_the_same_blocks() {
    let text = "procedure P(n: int) returns (r: int) { var i: int; i := 0; \
                while (i < n) invariant i <= n; { if (i == 3) { break; } i := i + 1; } r := i; }";
    let imp = lower_ok(text);
    let printed = ivl::printer::print_program(&Program {
        decls: vec![
            Decl {
                kind: DeclKind::Procedure(ProcedureDecl {
                    attrs: vec![],
                    name: imp.name.clone(),
                    type_params: vec![],
                    ins: imp.ins.clone(),
                    outs: imp.outs.clone(),
                    contracts: vec![],
                    modifies: vec![],
                    body: None,
                }),
                span: Span::DUMMY,
            },
            imp.to_decl(),
        ],
    });
    let again = lower_ok(&printed);
    assert_eq!(shape(&again), shape(&imp), "{printed}");
}
