//! Loop cutting: invariants checked on entry and at the end of each iteration, loop targets
//! havocked, back edges removed.

mod desugar_common;
use desugar_common::*;
use ivl::diag::ErrorKind;
use vcgen::desugar::prepare;

#[test]
fn while_loop_is_cut_at_its_header_and_latch() {
    let text = r#"
var g: int;
procedure Bump(); modifies g;
procedure main(n: int) returns (s: int)
  modifies g;
{
  var i: int;
  i := 0;
  while (i < n)
    invariant i <= n || n < 0;
    free invariant i >= 0;
  {
    i := i + 1;
    call Bump();
  }
}
"#;
    let imp = vc(text, "main");
    let head = block(&imp, "anon1_LoopHead");
    let inv = span_of(text, "invariant i <= n || n < 0;");
    let chk = |kind: &str| {
        format!("assert {{:check \"{kind}\"}} {{:related_span {}, {}}} i <= n || n < 0;", inv.start, inv.end)
    };
    assert_eq!(
        lines(head),
        vec![chk("invariant-entry"), "havoc i, g;".into(), "assume i <= n || n < 0;".into(), "assume i >= 0;".into()]
    );
    assert_eq!(succs(head), vec!["anon1_LoopBody", "anon1_LoopDone"]);
    let body = block(&imp, "anon1_LoopBody");
    let l = lines(body);
    assert_eq!(l[0], "assume i < n;");
    assert_eq!(&l[l.len() - 2..], &[chk("invariant-maintained"), "assume false;".into()]);
    assert!(succs(body).is_empty(), "the back edge is gone");
    // The entry check and the maintenance check point at the invariant.
    let c = checks(&imp);
    assert_eq!(c.iter().filter(|c| c.0 == "invariant-entry" && c.2 == inv).count(), 1);
    assert_eq!(c.iter().filter(|c| c.0 == "invariant-maintained" && c.2 == inv).count(), 1);
}

#[test]
fn nested_loops_havoc_inner_targets_in_the_outer_header() {
    let text = r#"
procedure main(n: int) {
  var i, j, k: int;
  i := 0;
  while (i < n) invariant i >= 0; {
    j := 0;
    while (j < i) invariant j >= 0; { j := j + 1; k := j; }
    i := i + 1;
  }
}
"#;
    let imp = vc(text, "main");
    let outer = block(&imp, "anon1_LoopHead");
    let inner = block(&imp, "anon2_LoopHead");
    // Targets in block order: the outer body assigns j, the inner loop j and k, its exit i.
    assert_eq!(lines(outer)[1], "havoc j, k, i;", "{}", show(&imp));
    assert!(lines(inner).contains(&"havoc j, k;".to_string()), "{}", show(&imp));
    let c = checks(&imp);
    assert_eq!(c.iter().filter(|c| c.0 == "invariant-entry").count(), 2);
    assert_eq!(c.iter().filter(|c| c.0 == "invariant-maintained").count(), 2);
}

#[test]
fn goto_loop_with_gpuverify_style_candidate_invariants() {
    let text = r#"
const {:existential true} _b0: bool;
procedure main(n: bv32) {
  var i: bv32;
  entry:
    i := 0bv32;
    goto head;
  head:
    assume {:captureState "loop_head_state_0"} true;
    assert {:tag "loopBound"} {:thread 1} _b0 ==> i != 7bv32;
    assert {:block_sourceloc} {:sourceloc_num 4} true;
    i := i;
    goto body, done;
  body:
    assume i != n;
    i := n;
    goto head;
  done:
    assume i == n;
    return;
}
"#;
    let imp = vc(text, "main");
    let head = block(&imp, "head");
    let l = lines(head);
    let tag = span_of(text, "assert {:tag \"loopBound\"} {:thread 1} _b0 ==> i != 7bv32;");
    assert_eq!(
        l[0],
        format!(
            "assert {{:check \"invariant-entry\"}} {{:related_span {}, {}}} {{:tag \"loopBound\"}} {{:thread 1}} _b0 ==> i != 7bv32;",
            tag.start, tag.end
        )
    );
    assert!(l[1].starts_with("assert {:check \"invariant-entry\"}"), "{l:?}");
    assert_eq!(l[2], "havoc i;");
    assert_eq!(l[3], "assume {:captureState \"loop_head_state_0\"} true;");
    assert_eq!(l[4], "assume {:tag \"loopBound\"} {:thread 1} _b0 ==> i != 7bv32;");
    assert_eq!(l[6], "i := i;");
    let body = lines(block(&imp, "body"));
    assert!(body[2].starts_with("assert {:check \"invariant-maintained\"}") && body[2].contains("_b0 ==>"), "{body:?}");
    assert_eq!(body.last().unwrap(), "assume false;");
}

#[test]
fn latch_with_other_successors_gets_a_block_on_the_back_edge() {
    let text = r#"
procedure main() {
  var i: int;
  head:
    assert i >= 0;
    goto body;
  body:
    i := i + 1;
    goto head, out;
  out:
    return;
}
"#;
    let imp = vc(text, "main");
    let body = block(&imp, "body");
    assert_eq!(succs(body), vec!["body$backedge$head", "out"]);
    let cut = block(&imp, "body$backedge$head");
    let l = lines(cut);
    assert!(l[0].starts_with("assert {:check \"invariant-maintained\"}") && l[0].ends_with("i >= 0;"), "{l:?}");
    assert_eq!(l[1], "assume false;");
    // The loop header was the entry: the new entry block comes first.
    assert_eq!(imp.blocks[0].label.name, "PreconditionGeneratedEntry");
    assert_eq!(succs(&imp.blocks[0]), vec!["head"]);
}

#[test]
fn loop_that_never_iterates_checks_its_invariant_once() {
    let text = "procedure main() { var i: int; while (i < 3) invariant i < 10; { break; } }";
    let imp = vc(text, "main");
    let kinds: Vec<String> = checks(&imp).into_iter().map(|c| c.0).collect();
    assert_eq!(kinds, vec!["invariant-entry"]);
}

#[test]
fn irreducible_control_flow_is_reported_with_its_blocks() {
    let text = r#"
procedure main(c: bool) {
  start: goto left, right;
  left: goto right;
  right: goto left;
}
"#;
    let errs = prepare(&parse(text)).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].kind, ErrorKind::Unsupported);
    assert!(errs[0].message.contains("`left`") && errs[0].message.contains("`right`"), "{}", errs[0].message);
}

#[test]
fn multi_exit_loop_keeps_every_exit() {
    let text = r#"
procedure main(n: int) returns (r: int) ensures r >= 0; {
  var i: int;
  i := 0;
  while (i < n) invariant i >= 0; {
    if (i == 5) { r := i; return; }
    i := i + 1;
  }
  r := i;
}
"#;
    let imp = vc(text, "main");
    // Two returns, each checking the postcondition; the loop is cut.
    let kinds: Vec<String> = checks(&imp).into_iter().map(|c| c.0).collect();
    assert_eq!(kinds.iter().filter(|k| *k == "postcondition").count(), 2, "{}", show(&imp));
    assert_eq!(kinds.iter().filter(|k| *k == "invariant-maintained").count(), 1);
}

#[test]
fn barrier_in_a_loop_havocs_every_global() {
    let text = r#"
var {:group_shared} A: [int]int;
var {:global} B: [int]int;
procedure {:kernel} K() {
  var i: int;
  while (i < 10) invariant true; { barrier; i := i + 1; }
}
"#;
    let imp = vc_at(text, "K", vcgen::desugar::Stage::LoopsCut);
    let head = lines(block(&imp, "anon1_LoopHead"));
    assert_eq!(head[1], "havoc A, B, i;", "{head:?}");
}
