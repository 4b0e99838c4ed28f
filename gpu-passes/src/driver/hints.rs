//! Hints on a kernel's results that point the user at the next thing to try (issue 22, "the
//! first hour of a user"):
//!
//! - **inference off**: with `--no-infer`, a kernel whose loops have no invariants is verified
//!   with the loops cut to arbitrary iterations (every variable the loop assigns havocked), and
//!   a correct kernel often gets a false race or assertion failure. Each such error gets a note
//!   saying that inference (on by default, as in GPUVerify) might prove it;
//! - **symbolic sizes**: without `--local-size`/`--num-groups`, indices such as
//!   `group_id_x * group_size_x + local_id_x` are non-linear, and Z3 often runs out of time.
//!   An inconclusive result then suggests concrete sizes.
//!
//! Hints only add notes and words to a reason; they never change a verdict.

use super::Config;
use crate::invariants::facts::{ProgramFacts, Site};
use crate::invariants::Sizes;
use ivl::ast::{Program, Span, StmtKind};
use ivl::diag::ErrorKind;
use vcgen::engine::{Outcome, ProgramResult};

/// The note on an error of a kernel that has loops without invariants, inference off.
pub const NO_INFER_NOTE: &str = "this kernel has loops without invariants and inference is off (--no-infer): \
     run without --no-infer, and kivl infers loop invariants (Houdini), which might prove it";

/// Adds the hints to `result` (the two-thread path's results of `program`).
pub fn add(result: &mut ProgramResult, program: &Program, cfg: &Config) {
    if !cfg.infer && cfg.engine.loop_unwind.is_none() && has_loop_without_invariants(program) {
        for r in &mut result.impls {
            if let Outcome::Errors(ds) = &mut r.outcome {
                for d in ds.iter_mut().filter(|d| involves_loops(d.kind)) {
                    d.notes.push(NO_INFER_NOTE.into());
                }
            }
        }
    }
    if cfg.kernel.local_size.is_none() || cfg.kernel.num_groups.is_none() {
        let suggestion = size_suggestion(program);
        // Not for implementations `--stop-at-first-error` left out: sizes are not their problem.
        for r in result.impls.iter_mut().filter(|r| !r.outcome.is_skipped()) {
            if let Outcome::Inconclusive(reason) = &mut r.outcome {
                reason.push_str(&suggestion);
            }
        }
    }
}

/// Errors that a missing loop invariant can cause (not input errors, not timeouts).
fn involves_loops(kind: ErrorKind) -> bool {
    !kind.is_input_error() && kind != ErrorKind::Timeout
}

/// Whether a body a kernel reaches has a loop without user invariants (`while` loops without
/// `invariant` clauses; a goto loop counts, since its invariants cannot be told from asserts).
pub fn has_loop_without_invariants(program: &Program) -> bool {
    let facts = ProgramFacts::new(program, Sizes::default());
    facts.loops().iter().any(|l| match l.site {
        Site::While(_) => while_at(program, l.span).is_some_and(|invariants| invariants == 0),
        Site::Label(_) => true,
    })
}

/// The number of invariants of the `while` statement at `span`.
fn while_at(program: &Program, span: Span) -> Option<usize> {
    let mut found = None;
    for b in bodies(program) {
        ivl::modifies::walk_stmts(&b.stmts, &mut |s| match &s.kind {
            StmtKind::While { invariants, .. } if s.span == span => found = Some(invariants.len()),
            _ => {}
        });
    }
    found
}

/// Every body of the program: implementations' and procedures'.
fn bodies(program: &Program) -> impl Iterator<Item = &ivl::ast::Body> {
    program.implementations().map(|i| &i.body).chain(program.procedures().filter_map(|p| p.body.as_ref()))
}

/// The words added to an inconclusive reason when the sizes are symbolic: concrete sizes of
/// the dimensions the bodies use (axioms fixing unused dimensions to 1 do not count).
fn size_suggestion(program: &Program) -> String {
    let names: Vec<ivl::ast::Name> = bodies(program).flat_map(ivl::visit::free_vars).collect();
    let uses = |axis: &str| {
        ["local_id_", "group_id_", "group_size_", "num_groups_"]
            .iter()
            .any(|n| names.iter().any(|v| v.as_str() == format!("{n}{axis}")))
    };
    let (local, groups) = if uses("z") {
        ("8,8,4", "2,2,2")
    } else if uses("y") {
        ("16,16", "4,4")
    } else {
        ("64", "16")
    };
    format!(
        " (the sizes are symbolic, which makes thread-id arithmetic non-linear: try concrete ones, \
         e.g. --local-size {local} --num-groups {groups})"
    )
}
