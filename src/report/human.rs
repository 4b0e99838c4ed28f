//! The human output: each error rendered with its source (ariadne), the extra lines, `--time`'s
//! lines and Boogie's closing line.
//!
//! A renderer: it reads the report model and nothing else of the run.

use super::model::{bounded_wording, is_trace, Counts, FileReport, RunExtras};
use ivl::diag::Diagnostic;

/// The human output: each error (without its execution trace unless `verbose`), the extra
/// lines, `--time`'s lines and the closing line; with `silent`, the closing line alone.
pub(super) fn human_text(
    reports: &[FileReport],
    verbose: bool,
    silent: bool,
    summary: Option<Counts>,
    run: &RunExtras,
) -> String {
    let mut out = String::new();
    if !silent {
        let color = std::io::IsTerminal::is_terminal(&std::io::stdout());
        for r in reports {
            for d in &r.errors {
                out.push_str(&shown(d, verbose).render(&r.source, color));
            }
            for line in &r.info {
                out.push_str(line);
                out.push('\n');
            }
        }
        if !run.skipped.is_empty() {
            let n = run.skipped.len();
            out.push_str(&format!(
                "stopped at the first error (--stop-at-first-error): {n} file{} not verified: {}\n",
                if n == 1 { "" } else { "s" },
                run.skipped.join(", ")
            ));
        }
        for line in &run.time_lines {
            out.push_str(line);
            out.push('\n');
        }
    }
    if let Some(c) = summary {
        out.push_str(&closing_line(c));
    }
    out
}

/// A diagnostic as the human output shows it: the execution trace of internal block names
/// (`execution trace: anon0 -> anon1_Then -> …`, kilobytes on GPUVerify's files) only with
/// `--verbose`.
fn shown(d: &Diagnostic, verbose: bool) -> std::borrow::Cow<'_, Diagnostic> {
    if verbose || !d.notes.iter().any(|n| is_trace(n)) {
        return std::borrow::Cow::Borrowed(d);
    }
    let mut d = d.clone();
    d.notes.retain(|n| !is_trace(n));
    std::borrow::Cow::Owned(d)
}

/// Boogie's closing line, with its singular for one error; like Boogie's "time outs",
/// inconclusive checks are counted apart, and so are invalid files, each only when there are
/// some.
fn closing_line(c: Counts) -> String {
    let noun = if c.errors == 1 { "error" } else { "errors" };
    let mut out = format!("kivl finished with {} verified, {} {noun}", c.verified, c.errors);
    let skipped = (c.skipped, "not verified (--stop-at-first-error)");
    for (n, what) in [(c.inconclusive, "inconclusive"), (c.invalid, "invalid"), skipped] {
        if n > 0 {
            out.push_str(&format!(", {n} {what}"));
        }
    }
    if let (n, Some(depth)) = (c.bounded, c.loop_unwind) {
        if n > 0 {
            out.push_str(&format!(", {n} bounded: {}", bounded_wording(depth)));
        }
    }
    // Race freedom means something only for kernels that terminate (seed 004).
    if c.termination_checked {
        out.push_str("; termination checked");
    } else if c.kernels > 0 {
        out.push_str("; termination not checked (--termination)");
    }
    out.push('\n');
    out
}
