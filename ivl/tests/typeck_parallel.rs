//! A body longer than `PARALLEL_CHECK_BYTES` is type-checked in parts on several threads: the
//! diagnostics must be exactly those of a sequential check, in statement order, wherever the
//! errors are (on either side of every cut).

use ivl::diag::{ErrorKind, SourceFile};
use ivl::typeck::PARALLEL_CHECK_BYTES;

/// A procedure whose body has `n` statements; statement `i` is wrong (an int variable
/// assigned `true`) when `i` is in `wrong`, and a few labels, gotos and structured statements
/// reach across the middle of the body.
fn program(n: usize, wrong: &[usize]) -> String {
    let mut src = String::from("procedure P() {\n  var x: int;\n  var b: bool;\n");
    for i in 0..n {
        if wrong.contains(&i) {
            src.push_str("  x := true;\n");
        } else if i == 10 {
            src.push_str("  goto Far;\n");
        } else if i == n / 2 {
            // A label right before the middle names the `while` after it.
            src.push_str("  Mid:\n  while (x < 0) { break Mid; }\n");
        } else if i == n - 10 {
            src.push_str("  Far:\n  goto Nowhere;\n");
        } else {
            src.push_str(&format!("  x := x + {};\n", i % 7));
        }
    }
    src.push_str("}\n");
    src
}

/// `(line, kind)` of every diagnostic of `src`, in the order reported.
fn diagnostics(src: &str) -> Vec<(usize, ErrorKind)> {
    let (prog, parse) = ivl::parser::parse_program(src);
    assert!(parse.is_empty(), "{parse:?}");
    let file = SourceFile::new("t.bpl", src);
    ivl::check::check_program(&prog).iter().map(|d| (file.line_col(d.primary.span.start).0, d.kind)).collect()
}

#[test]
fn errors_in_both_halves_are_reported_in_order() {
    let n = 40_000;
    let wrong = [0, 5, 7_000, n / 4 - 1, n / 4 + 1, n / 2 - 1, n / 2 + 2, 30_000, 30_001, n - 1];
    let src = program(n, &wrong);
    assert!(src.len() as u32 > PARALLEL_CHECK_BYTES, "the body is long enough to be split");
    let got = diagnostics(&src);
    // Each wrong statement gives one type error, on its line (4 lines of header before
    // statement 0; the labels `Mid` and `Far` add a line each); `goto Nowhere` one more.
    let line = |i: usize| 4 + i + usize::from(i > n / 2) + usize::from(i > n - 10);
    let mut expected: Vec<(usize, ErrorKind)> = wrong.iter().map(|&i| (line(i), ErrorKind::Type)).collect();
    expected.push((line(n - 10) + 1, ErrorKind::Type));
    expected.sort();
    assert_eq!(got.len(), expected.len(), "{got:?}");
    // In statement order, as reported.
    assert_eq!(got.iter().map(|e| e.0).collect::<Vec<_>>(), expected.iter().map(|e| e.0).collect::<Vec<_>>());
}

#[test]
fn split_and_sequential_checks_agree() {
    // The same first statements, once in a body below the threshold (checked on one thread)
    // and once in a body above it: the diagnostics of the first 1,000 lines are the same.
    let wrong = [3, 900, 1_500];
    let small_src = program(2_000, &wrong);
    assert!(small_src.len() < PARALLEL_CHECK_BYTES as usize);
    let first = |d: Vec<(usize, ErrorKind)>| d.into_iter().filter(|e| e.0 < 1_000).collect::<Vec<_>>();
    let small = first(diagnostics(&small_src));
    assert_eq!(small.len(), 2, "{small:?}");
    assert_eq!(first(diagnostics(&program(40_000, &wrong))), small);
}
