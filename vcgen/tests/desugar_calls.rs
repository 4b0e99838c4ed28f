//! Calls by contract: assert the callee's non-free requires, snapshot, havoc, assume ensures.

mod desugar_common;
use desugar_common::*;

const PROG: &str = r#"
var g: int;
var h: int;
procedure Q(a: int) returns (b: int);
  requires {:race} a >= 0;
  free requires a < 100;
  ensures b == a + old(g);
  free ensures g >= old(g);
  modifies g;

procedure main(n: int) returns (s: int)
  modifies g, h;
{
  call s := Q(n);
  call s := Q(s);
  call h := Q(h + g);
}
"#;

/// The printed precondition check of `Q` for argument `a`.
fn pre(a: &str) -> String {
    let r = span_of(PROG, "requires {:race} a >= 0;");
    format!("assert {{:check \"precondition\"}} {{:related_span {}, {}}} {{:race}} {a} >= 0;", r.start, r.end)
}

#[test]
fn simple_call() {
    let imp = vc(PROG, "main");
    let l = lines(&imp.blocks[1]);
    assert_eq!(
        &l[..5],
        &[&pre("n"), "call$0$old$g := g;", "havoc s, g;", "assume s == n + call$0$old$g;", "assume g >= call$0$old$g;",],
        "{}",
        show(&imp)
    );
    // The precondition check is located at the call and related to the requires clause.
    let pre = &checks(&imp)[0];
    assert_eq!(pre.0, "precondition");
    assert_eq!(pre.1, Some(span_of(PROG, "requires {:race} a >= 0;")));
    assert_eq!(pre.2, span_of(PROG, "call s := Q(n);"));
}

#[test]
fn argument_that_the_call_changes_goes_through_a_temporary() {
    let imp = vc(PROG, "main");
    let l = lines(&imp.blocks[1]);
    assert_eq!(
        &l[5..10],
        &[
            "call$1$in$a := s;",
            &pre("call$1$in$a"),
            "call$1$old$g := g;",
            "havoc s, g;",
            "assume s == call$1$in$a + call$1$old$g;",
        ]
    );
}

#[test]
fn global_out_argument_goes_through_a_temporary() {
    let imp = vc(PROG, "main");
    let l = lines(&imp.blocks[1]);
    assert_eq!(
        &l[11..],
        &[
            "call$2$in$a := h + g;",
            &pre("call$2$in$a"),
            "call$2$old$g := g;",
            "havoc call$2$out$b, g;",
            "assume call$2$out$b == call$2$in$a + call$2$old$g;",
            "assume g >= call$2$old$g;",
            "h := call$2$out$b;",
        ]
    );
}

#[test]
fn free_requires_is_not_checked_at_the_call() {
    let imp = vc(PROG, "main");
    assert!(!all_lines(&imp).iter().any(|l| l.contains("< 100")), "{}", show(&imp));
}

#[test]
fn local_shadowing_a_global_does_not_capture_the_contract() {
    let text = r#"
var g: int;
procedure P();
  requires g > 0;
  modifies g;
procedure main() modifies g; { var g: int; g := 1; call P(); }
"#;
    let imp = vc(text, "main");
    let l = all_lines(&imp);
    assert!(l.contains(&"g$local := 1;".to_string()), "{l:?}");
    assert!(l.iter().any(|x| x.ends_with("g > 0;")), "{l:?}");
    assert!(l.contains(&"havoc g;".to_string()), "{l:?}");
}

#[test]
fn call_to_undeclared_procedure_is_a_diagnostic() {
    let (p, d) = ivl::parser::parse_program("procedure main() { call Nope(); }");
    assert!(d.is_empty());
    let errs = vcgen::desugar::prepare(&p).unwrap_err();
    assert!(errs[0].message.contains("Nope"), "{}", errs[0].message);
}
