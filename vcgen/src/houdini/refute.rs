//! Candidate refutation: one Houdini check of one implementation under an assignment
//! ([`check`], Boogie's `/contractInfer` check with the saving of [`Failure::also`]), and the
//! [`ImplRound`] it makes ([`round`]), the same for every strategy that schedules checks:
//! Boogie's rounds and the asynchronous search of `crate::engine::asynchronous`.

use super::results::{Assignment, ImplRound};
use crate::solver::{Check, VcSolver};
use crate::wp::Failure;
use crate::HashSet;
use ivl::ast::Name;
use ivl::diag::Diagnostic;
use z3::ast::Bool;

/// The raw result of [`check`]: refuted candidates and non-candidate failures.
pub struct Checked {
    pub refuted: Vec<Name>,
    pub failures: Vec<Failure>,
    pub inconclusive: Option<String>,
    /// Solver calls made.
    pub checks: usize,
}

/// The literals that fix candidates to `assignment` (candidates not in it are false).
pub fn literals(candidates: &[(Name, Bool)], assignment: &Assignment) -> Vec<Bool> {
    candidates
        .iter()
        .map(|(n, b)| if assignment.get(n).copied().unwrap_or(false) { b.clone() } else { b.not() })
        .collect()
}

/// One Houdini check of one implementation under `assignment`, as Boogie's `/contractInfer`
/// does it: with the candidates fixed to the assignment, up to `limit` failing assertions are
/// enumerated (each one found is then assumed, so the next check finds another). A failure of
/// an assertion `b ==> φ` guarded by a true candidate refutes `b`; any other failure is a
/// non-candidate failure. `only` restricts the checked assertions (the others are assumed),
/// for checking one implementation on several solvers at once.
pub fn check(
    s: &VcSolver,
    candidates: &[(Name, Bool)],
    assignment: &Assignment,
    limit: usize,
    only: Option<&[usize]>,
) -> Checked {
    s.begin();
    let mut assumptions = literals(candidates, assignment);
    if let Some(only) = only {
        let mine: HashSet<usize> = only.iter().copied().collect();
        assumptions.extend((0..s.vc.asserts.len()).filter(|k| !mine.contains(k)).map(|k| s.disable(k)));
    }
    let mut out = Checked { refuted: Vec::new(), failures: Vec::new(), inconclusive: None, checks: 0 };
    let true_guard = |k: usize| s.vc.asserts[k].guard.as_ref().filter(|g| assignment.get(*g).copied().unwrap_or(false));
    // Failing assertions found, one per solver check (Boogie's counterexamples per check).
    let mut found = 0;
    while found < limit.max(1) {
        out.checks += 1;
        let t = std::time::Instant::now();
        let result = s.check(&assumptions);
        if crate::trace::trace_enabled() {
            eprintln!(
                "houdini check {}: {:.3}s {}",
                out.checks,
                t.elapsed().as_secs_f64(),
                match &result {
                    Check::Valid => "valid".to_string(),
                    Check::Failure(f) => format!(
                        "fails {:?} guard {:?} (+{} in the same state)",
                        s.vc.asserts[f.assert].span,
                        s.vc.asserts[f.assert].guard,
                        f.also.len()
                    ),
                    Check::Inconclusive(r) => r.clone(),
                }
            );
        }
        match result {
            Check::Valid => break,
            Check::Failure(f) => {
                found += 1;
                assumptions.push(s.disable(f.assert));
                let Some(g) = true_guard(f.assert) else {
                    out.failures.push(f);
                    continue;
                };
                let mut refute = |g: &Name| {
                    if !out.refuted.contains(g) {
                        out.refuted.push(g.clone());
                    }
                };
                refute(g);
                // The same execution goes on to the following asserts of its segment once the
                // refuted ones are gone: each of them that is false in the model and guarded by
                // a true candidate is refuted too, up to the first that is not (an execution
                // stops at a real failure, which a later check reports).
                for &j in &f.also {
                    let Some(g) = true_guard(j) else { break };
                    refute(g);
                    assumptions.push(s.disable(j));
                }
            }
            Check::Inconclusive(r) => {
                out.inconclusive = Some(r);
                break;
            }
        }
    }
    out
}

/// How a round's failures become diagnostics, given the reason the search for more stopped
/// (the caller knows the VC's spans and how to word them).
pub type Report<'a> = &'a dyn Fn(&[Failure], Option<&str>) -> Vec<Diagnostic>;

impl Checked {
    /// The round these checks make: the failures as `report` words them (it knows the VC's
    /// spans), with the reason the search for more stopped.
    fn into_round(self, report: Report) -> (ImplRound, usize) {
        let errors = report(&self.failures, self.inconclusive.as_deref());
        (ImplRound { refuted: self.refuted, errors, inconclusive: self.inconclusive }, self.checks)
    }
}

/// The part of an implementation's VC a [`round`] checks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Part<'a> {
    /// Only these assertions, the others assumed (a share of the VC, `--split-vc`); all if
    /// `None`.
    pub asserts: Option<&'a [usize]>,
    /// One failing assertion per check instead of up to the error limit (a racer's
    /// `each_failure`, [`crate::solver::Racer`]).
    pub one_failure: bool,
}

/// One Houdini round of one implementation under `assignment`: [`check`] of `part` of its VC,
/// up to `error_limit` failures per check (or one), reported by `report`, with the number of
/// solver calls made.
///
/// A round of part of the VC, or of one failure at a time, reports the failures it found: a
/// non-candidate failure ends Houdini, and the caller (`crate::engine`'s asynchronous search,
/// the only one that divides the VC or races) then has every unit of the implementation
/// enumerate the failures of a share of the VC under that assignment, in parallel, so that
/// what it reports does not depend on which unit found the failure first.
pub fn round(
    s: &VcSolver,
    candidates: &[(Name, Bool)],
    assignment: &Assignment,
    error_limit: usize,
    part: Part,
    report: Report,
) -> (ImplRound, usize) {
    let limit = if part.one_failure { 1 } else { error_limit };
    check(s, candidates, assignment, limit, part.asserts).into_round(report)
}
