//! What a verification run found: a verdict per implementation ([`Outcome`], [`ImplResult`]),
//! in program order, with Houdini's statistics and the input errors ([`ProgramResult`], which
//! also gives the exit status of docs/kbpl.md §8 and Boogie's summary counts).

use crate::houdini::{HoudiniStats, ImplRound, STOPPED_ELSEWHERE};
use ivl::ast::Span;
use ivl::diag::Diagnostic;
use std::time::Duration;

#[derive(Clone, Debug)]
pub enum Outcome {
    Verified,
    /// Failing checks, at most `error_limit` of them.
    Errors(Vec<Diagnostic>),
    /// Timeout, solver unknown, or an internal error.
    Inconclusive(String),
}

#[derive(Clone, Debug)]
pub struct ImplResult {
    pub name: String,
    pub span: Span,
    pub outcome: Outcome,
    /// Wall time spent on this implementation (encoding and final checks; Houdini excluded).
    pub time: Duration,
}

#[derive(Clone, Debug, Default)]
pub struct ProgramResult {
    /// In program order.
    pub impls: Vec<ImplResult>,
    pub houdini: Option<HoudiniStats>,
    /// Input errors (desugaring or encoding): the program is invalid and nothing was verified.
    pub errors: Vec<Diagnostic>,
    /// Remarks that do not change the verdict (unknown builtins, ignored triggers).
    pub notes: Vec<Diagnostic>,
    /// Houdini's assignment in Boogie's `/printAssignment` format, when asked for.
    pub assignment_text: Option<String>,
}

impl ProgramResult {
    pub(super) fn invalid(errors: Vec<Diagnostic>) -> ProgramResult {
        ProgramResult { errors, ..Default::default() }
    }

    /// docs/kbpl.md §8 exit status: 0 verified, 1 errors, 2 invalid input, 3 inconclusive.
    pub fn exit_code(&self) -> i32 {
        if !self.errors.is_empty() {
            2
        } else if self.impls.iter().any(|r| matches!(r.outcome, Outcome::Errors(_))) {
            1
        } else if self.impls.iter().any(|r| matches!(r.outcome, Outcome::Inconclusive(_))) {
            3
        } else {
            0
        }
    }

    /// Boogie's summary counts: (verified, errors, inconclusive). Every failing check counts as
    /// one error, as in Boogie's "N verified, M errors"; implementations `--stop-at-first-error`
    /// left out count in none.
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut c = (0, 0, 0);
        for r in self.impls.iter().filter(|r| !r.outcome.is_skipped()) {
            match &r.outcome {
                Outcome::Verified => c.0 += 1,
                Outcome::Errors(e) => c.1 += e.len(),
                Outcome::Inconclusive(_) => c.2 += 1,
            }
        }
        c
    }
}

/// Why an implementation has no verdict under `--stop-at-first-error`
/// ([`super::VerifyOptions::stop_at_first_error`]): an implementation before it had an error.
pub const SKIPPED_AT_FIRST_ERROR: &str = "not verified: --stop-at-first-error";

/// Why an implementation has no verdict when a worker thread stopped (a panic, whose message
/// is `crash_message`).
pub(super) fn crash_reason(crash_message: &str) -> String {
    format!("internal error: the verifier stopped ({crash_message})")
}

impl Outcome {
    /// The outcome of an implementation `--stop-at-first-error` left out: inconclusive (never
    /// verified), with [`SKIPPED_AT_FIRST_ERROR`] as its reason.
    pub fn skipped() -> Outcome {
        Outcome::Inconclusive(SKIPPED_AT_FIRST_ERROR.into())
    }

    /// Whether this is [`Outcome::skipped`].
    pub fn is_skipped(&self) -> bool {
        matches!(self, Outcome::Inconclusive(r) if r == SKIPPED_AT_FIRST_ERROR)
    }

    /// The outcome of an implementation from its last Houdini round (`None`: it was lost with
    /// a crashed worker).
    pub(super) fn of_houdini(last: Option<ImplRound>, crash_message: &str) -> Outcome {
        match last {
            None => Outcome::Inconclusive(crash_reason(crash_message)),
            Some(r) if !r.errors.is_empty() => Outcome::Errors(r.errors),
            Some(ImplRound { inconclusive: Some(reason), .. }) => Outcome::Inconclusive(reason),
            Some(r) if !r.refuted.is_empty() => Outcome::Inconclusive(STOPPED_ELSEWHERE.into()),
            Some(_) => Outcome::Verified,
        }
    }
}
