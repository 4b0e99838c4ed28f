//! Loop unwinding (`DesugarOptions::loop_unwind`, `--loop-unwind N`): N copies of each loop
//! body, the back edges of the last copy cut off with `assume false`, no havoc; invariants stay
//! assertions of each copy (entry, then maintained).

mod desugar_common;
use desugar_common::*;
use vcgen::desugar::{prepare_with_options, DesugarOptions};

fn unrolled(text: &str, depth: u64) -> ivl::blocks::BlockImpl {
    let opts = DesugarOptions { loop_unwind: Some(depth), ..Default::default() };
    let mut inputs = prepare_with_options(&parse(text), &opts).unwrap();
    assert_eq!(inputs.len(), 1);
    let imp = inputs.remove(0).imp;
    check_output_invariants(&imp);
    imp
}

/// Nested goto loops (as the front end's kernels have): `inner` inside `outer`.
const NESTED: &str = r#"
procedure main(n: int) returns (s: int)
{
  var i: int;
  var j: int;
  entry:
    i := 0; s := 0;
    goto outer;
  outer:
    assert {:check "invariant"} i >= 0;
    goto outer_body, done;
  outer_body:
    assume i < n;
    j := 0;
    goto inner;
  inner:
    goto inner_body, inner_done;
  inner_body:
    assume j < i;
    s := s + 1;
    j := j + 1;
    goto inner;
  inner_done:
    assume j >= i;
    i := i + 1;
    goto outer;
  done:
    assume i >= n;
    return;
}
"#;

#[test]
fn nested_loops_are_unwound_innermost_first_without_havoc() {
    for depth in [1u64, 2, 3] {
        let imp = unrolled(NESTED, depth);
        let text = all_lines(&imp);
        assert!(!text.iter().any(|l| l.starts_with("havoc")), "{}", show(&imp));
        let d = depth as usize;
        let count = |needle: &str| text.iter().filter(|l| l.as_str() == needle).count();
        // The outer body is copied depth times; the inner loop's blocks that cannot return to
        // the outer loop's latch (its last copy, which ends cut off) are shared by the copies.
        assert_eq!(count("i := i + 1;"), d, "{}", show(&imp));
        assert!(count("s := s + 1;") >= d, "{}", show(&imp));
        // At least one cut-off block per loop.
        assert!(count("assume false;") >= 2, "{}", show(&imp));
        // The invariant is checked on entry, then in every later copy of the header.
        let kinds: Vec<String> = checks(&imp).into_iter().map(|c| c.0).collect();
        assert_eq!(kinds.iter().filter(|k| *k == "invariant-entry").count(), 1, "{kinds:?}");
        assert_eq!(kinds.iter().filter(|k| *k == "invariant-maintained").count(), d, "{kinds:?}");
    }
}

#[test]
fn without_unwinding_the_same_loops_are_cut() {
    let imp = vc(NESTED, "main");
    assert!(all_lines(&imp).iter().any(|l| l.starts_with("havoc")), "{}", show(&imp));
    assert_eq!(all_lines(&imp).iter().filter(|l| l.as_str() == "s := s + 1;").count(), 1);
}
