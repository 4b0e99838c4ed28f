//! Shared helpers of the `typeck_*` tests (included with `mod`).
#![allow(dead_code)]

use ivl::check::check_program;
use ivl::diag::{Diagnostic, ErrorKind, SourceFile};

/// Parses (which must succeed) and checks `src`.
pub fn diagnostics(src: &str) -> Vec<Diagnostic> {
    let (p, d) = ivl::parser::parse_program(src);
    assert!(d.is_empty(), "unexpected parse errors in test source: {d:#?}");
    check_program(&p)
}

fn describe(src: &str, ds: &[Diagnostic]) -> String {
    let f = SourceFile::new("t.kbpl", src);
    ds.iter()
        .map(|d| {
            let (l, c) = f.line_col(d.primary.span.start);
            format!("{l}:{c} [{}] {}", d.kind.as_str(), d.message)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `src` is accepted: no diagnostics at all.
pub fn accepts(src: &str) {
    let ds = diagnostics(src);
    assert!(ds.is_empty(), "expected no diagnostics, got:\n{}", describe(src, &ds));
}

/// `src` gets exactly one diagnostic, of `kind`, whose message contains `fragment`, at
/// `line:col` (1-based).
pub fn rejects(src: &str, kind: ErrorKind, fragment: &str, line: usize, col: usize) {
    let ds = diagnostics(src);
    assert_eq!(ds.len(), 1, "expected exactly one diagnostic, got:\n{}", describe(src, &ds));
    let d = &ds[0];
    let f = SourceFile::new("t.kbpl", src);
    let at = f.line_col(d.primary.span.start);
    assert_eq!(d.kind, kind, "wrong kind: {}", describe(src, &ds));
    assert!(d.message.contains(fragment), "message {:?} lacks {:?}", d.message, fragment);
    assert_eq!(at, (line, col), "wrong location: {}", describe(src, &ds));
}

/// Like [`rejects`] but allows further diagnostics after the first matching one.
pub fn rejects_among(src: &str, kind: ErrorKind, fragment: &str, line: usize, col: usize) {
    let ds = diagnostics(src);
    let f = SourceFile::new("t.kbpl", src);
    assert!(
        ds.iter()
            .any(|d| d.kind == kind && d.message.contains(fragment) && f.line_col(d.primary.span.start) == (line, col)),
        "no {kind:?} diagnostic containing {fragment:?} at {line}:{col}; got:\n{}",
        describe(src, &ds)
    );
}

pub fn type_err(src: &str, fragment: &str, line: usize, col: usize) {
    rejects(src, ErrorKind::Type, fragment, line, col)
}
