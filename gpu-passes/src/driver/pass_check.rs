//! The pass checker: every pass promises a program that type-checks again and prints as
//! `.kbpl` that parses back to the same program (ARCHITECTURE.md). With debug assertions, or
//! with `KIVL_CHECK_PASSES=1` in a release build, the driver holds each stage's output to
//! that promise (as Cranelift runs its IR verifier between passes, `verify_if`), so that a
//! pass that breaks it is named where it happens rather than found later as a confusing type
//! error, a solver failure or a wrong verdict. CI runs the kernel corpus this way.
//!
//! A broken promise is returned as a diagnostic, not a panic: the driver ends the path with it
//! (the file's report is then an `unsupported` internal error that names the stage), so that a
//! checker run over a corpus reports every file it finds rather than stopping at the first.

use super::stage::Stage;
use ivl::ast::{Program, Span};
use ivl::diag::Diagnostic;

/// Whether the checker runs: debug builds, or `KIVL_CHECK_PASSES` set to anything but `0`.
pub fn enabled() -> bool {
    cfg!(debug_assertions) || std::env::var_os("KIVL_CHECK_PASSES").is_some_and(|v| v != "0")
}

/// Holds `program`, the output of `stage`, to the promise; `Err`: the broken promise, an
/// internal error (a bug of the pass, not of the input) that names the stage.
pub fn check(stage: Stage, program: &Program) -> Result<(), Diagnostic> {
    let diags = ivl::check::check_program(program);
    if !diags.is_empty() {
        return Err(broken(stage, "does not type-check", &diags));
    }
    let text = ivl::printer::print_program(program);
    let (again, diags) = ivl::parser::parse_program(&text);
    if !diags.is_empty() {
        return Err(broken(stage, "prints as text that does not parse", &diags));
    }
    if ivl::printer::print_program(&again) != text {
        return Err(broken(stage, "prints as text that parses to a different program", &[]));
    }
    Ok(())
}

/// The diagnostic of a broken promise. It has no location in the input: the problem is in a
/// program the pass made (`kivl transform --emit STAGE` prints it).
fn broken(stage: Stage, what: &str, diags: &[Diagnostic]) -> Diagnostic {
    let first = diags.first().map_or(String::new(), |d| format!(": {}", d.message));
    Diagnostic::unsupported(
        format!(
            "internal error: the output of stage `{stage}` {what}{first} ({} problems; found by the pass checker, \
             KIVL_CHECK_PASSES)",
            diags.len()
        ),
        Span::DUMMY,
    )
    .with_note(format!("`kivl transform --emit {stage}` prints the program the checker refused"))
}
