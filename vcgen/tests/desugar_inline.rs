//! Inlining of `{:inline N}` procedures (Boogie's /inline:assume).

mod desugar_common;
use desugar_common::*;
use vcgen::desugar::Stage;

const PROG: &str = r#"
var g: int;
procedure {:inline 1} Inc(x: int) returns (r: int)
  requires x > 0;
  free requires x > 1;
  ensures r == old(g) + x;
  free ensures r > 0;
  ensures g == old(g) + 1;
  modifies g;
{
  var t: int;
  t := g;
  g := g + 1;
  r := old(g) + x;
  assert r > -5;
}

procedure main() returns (y: int)
  modifies g;
{
  y := 0;
  call y := Inc(y + 3);
  y := y + 1;
}
"#;

#[test]
fn call_is_replaced_by_a_renamed_copy_of_the_body() {
    // `ensures {:assume} e` (an attribute name the parser reserves) is assumed, not checked.
    let mut program = parse(PROG);
    for d in &mut program.decls {
        if let ivl::ast::DeclKind::Procedure(p) = &mut d.kind {
            if let Some(c) = p.contracts.last_mut() {
                c.attrs.push(ivl::ast::Attribute {
                    name: ivl::ast::Ident::new("assume", ivl::ast::Span::DUMMY),
                    args: vec![],
                    span: ivl::ast::Span::DUMMY,
                });
            }
        }
    }
    let opts = vcgen::desugar::DesugarOptions { stop_after: Stage::Inlined, ..Default::default() };
    let imp = vcgen::desugar::prepare_with_options(&program, &opts).unwrap().remove(0).imp;
    let labels: Vec<&str> = imp.blocks.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, vec!["anon0", "inline$Inc$0$Entry", "inline$Inc$0$anon0", "inline$Inc$0$Return", "anon0$1"]);
    assert_eq!(lines(&imp.blocks[0]), vec!["y := 0;"]);
    assert_eq!(succs(&imp.blocks[0]), vec!["inline$Inc$0$Entry"]);
    let req = span_of(PROG, "requires x > 0;");
    assert_eq!(
        lines(&imp.blocks[1]),
        vec![
            "inline$Inc$0$old$g := g;".to_string(),
            "inline$Inc$0$x := y + 3;".to_string(),
            format!(
                "assert {{:check \"precondition\"}} {{:related_span {}, {}}} inline$Inc$0$x > 0;",
                req.start, req.end
            ),
            "havoc inline$Inc$0$t, inline$Inc$0$r;".to_string(),
        ]
    );
    assert_eq!(
        lines(&imp.blocks[2]),
        vec![
            "inline$Inc$0$t := g;",
            "g := g + 1;",
            "inline$Inc$0$r := inline$Inc$0$old$g + inline$Inc$0$x;",
            "assert inline$Inc$0$r > -5;",
        ]
    );
    assert_eq!(succs(&imp.blocks[2]), vec!["inline$Inc$0$Return"]);
    let ens = span_of(PROG, "ensures r == old(g) + x;");
    assert_eq!(
        lines(&imp.blocks[3]),
        vec![
            format!(
                "assert {{:check \"postcondition\"}} {{:related_span {}, {}}} inline$Inc$0$r == inline$Inc$0$old$g + inline$Inc$0$x;",
                ens.start, ens.end
            ),
            "assume {:assume} g == inline$Inc$0$old$g + 1;".to_string(),
            "y := inline$Inc$0$r;".to_string(),
        ]
    );
    assert_eq!(succs(&imp.blocks[3]), vec!["anon0$1"]);
    assert_eq!(lines(&imp.blocks[4]), vec!["y := y + 1;"]);
    // The procedure that is only inlined is not verified on its own.
    let all = prepare_at(PROG, Stage::Calls);
    assert_eq!(all.len(), 1);
    check_output_invariants(&all[0].imp);
}

#[test]
fn inline_depth_bounds_recursion_with_assume_false() {
    let text = r#"
var g: int;
procedure {:inline 2} R() modifies g; { g := g + 1; call R(); }
procedure main() modifies g; { call R(); }
"#;
    let imp = vc(text, "main");
    let printed = show(&imp);
    assert_eq!(imp.blocks.iter().filter(|b| b.label.name.ends_with("$Entry")).count(), 2, "{printed}");
    assert!(printed.contains("inline$R$0$Entry") && printed.contains("inline$R$1$Entry"), "{printed}");
    assert_eq!(all_lines(&imp).iter().filter(|l| *l == "g := g + 1;").count(), 2);
    assert_eq!(all_lines(&imp).iter().filter(|l| *l == "assume false;").count(), 1, "{printed}");
}

#[test]
fn inline_zero_replaces_the_call_by_assume_false() {
    let text = r#"
procedure {:inline 0} Z() { assert false; }
procedure main() { call Z(); assert false; }
"#;
    let imp = vc(text, "main");
    assert_eq!(all_lines(&imp), vec!["assume false;", "assert false;"]);
}

#[test]
fn nested_inlining_and_attribute_on_the_implementation() {
    let text = r#"
var g: int;
procedure A(); modifies g;
implementation {:inline 1} A() { call B(); call B(); }
procedure {:inline 1} B() modifies g; { g := g + 1; }
procedure main() modifies g; { call A(); }
"#;
    let imp = vc(text, "main");
    assert_eq!(all_lines(&imp).iter().filter(|l| *l == "g := g + 1;").count(), 2, "{}", show(&imp));
    assert!(show(&imp).contains("inline$B$1$Entry"));
}

#[test]
fn inline_attribute_without_implementation_is_an_ordinary_call() {
    let text = r#"
var g: int;
procedure {:inline 1} {:barrier} bar(a: bv1);
  requires a == 1bv1;
  modifies g;
procedure main() modifies g; { call bar(1bv1); }
"#;
    let imp = vc(text, "main");
    let l = all_lines(&imp);
    assert!(l[0].starts_with("assert {:check \"precondition\"}") && l[0].ends_with("1bv1 == 1bv1;"), "{l:?}");
    assert_eq!(l[1], "havoc g;");
}

#[test]
fn inlined_loop_in_a_loop_is_cut() {
    let text = r#"
var g: int;
procedure {:inline 1} L(n: int) modifies g; {
  var i: int;
  i := 0;
  while (i < n) invariant i <= n || n < 0; { i := i + 1; g := g + 1; }
}
procedure main() modifies g; {
  var k: int;
  k := 0;
  while (k < 10) invariant k <= 10; { call L(k); k := k + 1; }
}
"#;
    let imp = vc(text, "main");
    let kinds: Vec<String> = checks(&imp).into_iter().map(|c| c.0).collect();
    assert_eq!(kinds.iter().filter(|k| *k == "invariant-entry").count(), 2, "{}", show(&imp));
    assert_eq!(kinds.iter().filter(|k| *k == "invariant-maintained").count(), 2);
}

/// A recursive procedure without `{:inline}`, for `--inline-depth` (Boogie's `/inlineDepth`).
const RECURSIVE: &str = r#"
procedure Down(n: int) returns (r: int)
  ensures r == 0;
{
  if (n > 0) { call r := Down(n - 1); } else { r := 0; }
}
"#;

/// The statements of all blocks, in order.
fn all_lines(imp: &ivl::blocks::BlockImpl) -> Vec<String> {
    imp.blocks.iter().flat_map(lines).collect()
}

#[test]
fn inline_depth_inlines_plain_procedures_and_keeps_the_call_past_the_depth() {
    let program = parse(RECURSIVE);
    let opts =
        vcgen::desugar::DesugarOptions { stop_after: Stage::Inlined, inline_depth: Some(1), ..Default::default() };
    let inputs = vcgen::desugar::prepare_with_options(&program, &opts).unwrap();
    // Still verified on its own, although its calls are inlined.
    assert_eq!(inputs.len(), 1);
    let text = all_lines(&inputs[0].imp);
    // One copy of the body; inside it the recursive call stays a call (Boogie's /inline:spec),
    // and the copy's postcondition is assumed where it returns, not checked.
    assert_eq!(text.iter().filter(|l| l.starts_with("call ")).count(), 1, "{text:#?}");
    assert!(text.iter().any(|l| l.starts_with("call inline$Down$0$r := Down(")), "{text:#?}");
    assert!(text.iter().any(|l| l == "assume inline$Down$0$r == 0;"), "{text:#?}");
    assert!(!text.iter().any(|l| l.contains("postcondition")), "{text:#?}");
}

#[test]
fn without_inline_depth_plain_procedures_are_called() {
    let program = parse(RECURSIVE);
    let opts = vcgen::desugar::DesugarOptions { stop_after: Stage::Inlined, ..Default::default() };
    let text = all_lines(&vcgen::desugar::prepare_with_options(&program, &opts).unwrap()[0].imp);
    assert!(text.iter().any(|l| l.starts_with("call r := Down(")), "{text:#?}");
    assert!(!text.iter().any(|l| l.contains("inline$")), "{text:#?}");
}
