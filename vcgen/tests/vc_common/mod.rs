//! Shared helpers of the `vc_*` and `houdini_*` tests: parse a source string, verify it, and
//! describe the outcome by error kinds and lines.

#![allow(dead_code)]

use ivl::diag::{ErrorKind, SourceFile};
use vcgen::engine::{verify_program, Outcome, ProgramResult, VerifyOptions};

pub fn parse(src: &str) -> ivl::ast::Program {
    let (program, diags) = ivl::parser::parse_program(src);
    assert!(diags.is_empty(), "parse errors: {diags:?}");
    let diags = ivl::check::check_program(&program);
    assert!(diags.iter().all(|d| !d.kind.is_input_error()), "check errors: {diags:?}");
    program
}

pub fn verify_with(src: &str, opts: &VerifyOptions) -> ProgramResult {
    verify_program(&parse(src), opts)
}

pub fn verify(src: &str) -> ProgramResult {
    verify_with(src, &VerifyOptions { jobs: 1, ..Default::default() })
}

/// `(implementation, kind, line)` of every reported error, in order.
pub fn errors(src: &str, r: &ProgramResult) -> Vec<(String, ErrorKind, usize)> {
    assert!(r.errors.is_empty(), "input errors: {:?}", r.errors);
    let file = SourceFile::new("t.bpl", src);
    let mut out = Vec::new();
    for imp in &r.impls {
        if let Outcome::Errors(ds) = &imp.outcome {
            for d in ds {
                out.push((imp.name.clone(), d.kind, file.line_col(d.primary.span.start).0));
            }
        }
    }
    out
}

/// The outcome of every implementation as a short word.
pub fn verdicts(r: &ProgramResult) -> Vec<(String, &'static str)> {
    assert!(r.errors.is_empty(), "input errors: {:?}", r.errors);
    r.impls
        .iter()
        .map(|i| {
            let v = match &i.outcome {
                Outcome::Verified => "verified",
                Outcome::Errors(_) => "errors",
                Outcome::Inconclusive(_) => "inconclusive",
            };
            (i.name.clone(), v)
        })
        .collect()
}

/// 1-based line of the first occurrence of `needle` in `src`.
pub fn line_of(src: &str, needle: &str) -> usize {
    let at = src.find(needle).unwrap_or_else(|| panic!("`{needle}` not in source"));
    src[..at].matches('\n').count() + 1
}
