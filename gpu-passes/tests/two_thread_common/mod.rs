//! Shared helpers of the two-thread tests: the front end as `kivl verify` runs it.

#![allow(dead_code)]

use ivl::ast::Program;
use ivl::diag::Diagnostic;

/// Parse, add the GPU prelude, resolve and type-check, infer `modifies` (as the CLI does).
pub fn front_end(text: &str) -> Result<Program, Vec<Diagnostic>> {
    let (p, diags) = ivl::parser::parse_program(text);
    if !diags.is_empty() {
        return Err(diags);
    }
    let p = ivl::prelude::with_prelude(p);
    let diags = ivl::check::check_program(&p);
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(ivl::modifies::infer_modifies(&p))
}
