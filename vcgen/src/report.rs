//! Turning a failing assertion found by the solver into a [`Diagnostic`] (docs/kbpl.md §8 error
//! kinds): the kind comes from the assertion's `{:check "KIND"}` attribute (set by desugaring,
//! see `ivl::blocks`), the primary location is the assertion (for a precondition: the call),
//! the related location is its `{:related_span}` (the violated `requires`, `ensures` or
//! invariant), and a note gives the execution trace as block labels, like Boogie's
//! "Execution trace".

use crate::wp::{Failure, Vc};
use crate::HashSet;
use ivl::ast::*;
use ivl::blocks::{check_kind, related_span};
use ivl::diag::{Diagnostic, ErrorKind};

/// The error kind named by a `{:check}` string (unknown strings are plain assertions).
pub fn error_kind(check: &str) -> ErrorKind {
    match check {
        "precondition" => ErrorKind::Precondition,
        "postcondition" => ErrorKind::Postcondition,
        "invariant-entry" | "invariant" => ErrorKind::InvariantEntry,
        "invariant-maintained" => ErrorKind::InvariantMaintained,
        "barrier-invariant" => ErrorKind::BarrierInvariant,
        "race" => ErrorKind::Race,
        "divergence" => ErrorKind::Divergence,
        _ => ErrorKind::Assertion,
    }
}

/// Message, primary label and related label of each kind.
fn texts(kind: ErrorKind) -> (&'static str, &'static str, &'static str) {
    match kind {
        ErrorKind::Precondition => {
            ("a precondition for this call might not hold", "this call", "this is the precondition that might not hold")
        }
        ErrorKind::Postcondition => (
            "a postcondition might not hold on this return path",
            "this return path",
            "this is the postcondition that might not hold",
        ),
        ErrorKind::InvariantEntry => ("this loop invariant might not hold on entry", "this invariant", "the loop"),
        ErrorKind::InvariantMaintained => {
            ("this loop invariant might not be maintained by the loop", "this invariant", "the loop")
        }
        ErrorKind::BarrierInvariant => {
            ("this barrier invariant might not hold", "this barrier invariant", "related location")
        }
        ErrorKind::Race => ("possible data race", "this access", "the other access"),
        ErrorKind::Divergence => ("possible barrier divergence", "this barrier", "related location"),
        _ => ("this assertion might not hold", "this assertion", "related location"),
    }
}

/// `{:related_source "FILE:LINE:COLUMN"}`: a related location in another file. `kivl transform
/// --emit` writes it in place of `{:related_span}`, whose offsets are those of the file the
/// program was emitted from, not of the emitted text.
pub const RELATED_SOURCE: &str = "related_source";

fn string_attr<'a>(attrs: &'a [Attribute], name: &str) -> Option<&'a str> {
    match find_attr(attrs, name)?.args.first() {
        Some(AttrArg::String(s, _)) => Some(s.as_str()),
        _ => None,
    }
}

/// The diagnostic for `failure`; `synthetic` labels (blocks inserted by passification) are left
/// out of the trace.
pub fn failure_diagnostic(vc: &Vc, failure: &Failure, synthetic: &HashSet<Name>) -> Diagnostic {
    let site = &vc.asserts[failure.assert];
    let kind = error_kind(check_kind(&site.attrs));
    let (message, label, related) = texts(kind);
    let message = string_attr(&site.attrs, "msg").unwrap_or(message);
    let mut d = Diagnostic::new(kind, message, site.span).with_label(label);
    if let Some(r) = related_span(&site.attrs) {
        d = d.with_related(r, related);
    } else if let Some(src) = string_attr(&site.attrs, RELATED_SOURCE) {
        d = d.with_note(format!("{related}: {src}, in the program this one was emitted from"));
    }
    let trace: Vec<&str> =
        failure.trace.iter().map(|&b| vc.labels[b].as_str()).filter(|l| !synthetic.contains(*l)).collect();
    d.values = failure.values.clone();
    d.with_note(format!("execution trace: {}", trace.join(" -> ")))
}
