//! Houdini: the largest set of candidate annotations that can be assumed true such that every
//! candidate annotation holds (Flanagan & Leino, "Houdini, an annotation assistant for
//! ESC/Java", 2001; Boogie's `/contractInfer`; seed 001 §4.3, where GPUVerify generates the
//! candidate loop invariants and contracts that Houdini filters).
//!
//! Candidates are boolean constants `const {:existential true} b: bool;` used as guards
//! `b ==> φ` (Boogie's convention, and GPUVerify's output), and clauses marked `{:candidate}`
//! (docs/kbpl.md §5.4), which [`guard_candidates`] turns into such guards before desugaring.
//!
//! The algorithm ([`fixpoint`]) is Boogie 2.4.1's: start with every candidate true; check the
//! implementations' VCs under the current assignment, enumerating up to `/errorLimit` failing
//! assertions per check ([`check`]); a failing assertion `b ==> φ` whose guard `b` is a true
//! candidate refutes `b`; repeat until no candidate is refuted. A failing assertion that no
//! candidate guards *stops* the search (Boogie's "abort on a non-candidate violation"): it is
//! reported, with the other non-candidate failures of that check, under the assignment of that
//! moment. Such an error is real whatever the remaining candidates: refutation only removes
//! assumptions. Without one, every implementation's last check proved it under the final
//! assignment, the greatest fixpoint (refutation is monotone, so the order of checks does not
//! matter — which lets independent implementations be checked in parallel, round by round, and
//! re-checked only when a candidate they mention was refuted).
//!
//! One departure from Boogie saves checks without changing the result: a model that fails a
//! candidate's assertion also shows every later assertion of the same straight run of asserts
//! (no `assume` between, so the same state; [`crate::wp::Failure::also`]) that is false in it.
//! Once the earlier ones are refuted, that execution fails at each of them, so their candidates
//! are refuted by the same check, up to the first such assertion that no true candidate guards
//! (an execution stops at a real failure). GPUVerify puts dozens of candidate invariants in a
//! row at each loop head.
//!
//! The VC of each implementation is built and asserted once: candidates enter each check as
//! assumption literals `b` / `¬b` ([`check`]). One implementation can also be checked on several
//! solvers at once, each checking a share of its assertions and assuming the others: a failure
//! found so is a real failure, and if every share holds then all assertions hold (the first
//! failing assertion of any execution would be found by the share that owns it).

use crate::solver::{Check, VcSolver};
use crate::wp::Failure;
use crate::HashSet;
use ivl::ast::*;
use ivl::visit::{walk_stmt_mut, VisitMut};
use std::collections::BTreeMap;
use z3::ast::Bool;

/// A value for every candidate.
pub type Assignment = BTreeMap<Name, bool>;

/// What one implementation's check in one round found.
#[derive(Clone, Debug, Default)]
pub struct ImplRound {
    /// Candidates refuted by this implementation (applied after the round).
    pub refuted: Vec<Name>,
    /// Failing assertions that no true candidate guards, as diagnostics (filled by the caller
    /// of [`check`], which knows how to report them). Any such failure stops Houdini.
    pub errors: Vec<ivl::diag::Diagnostic>,
    /// Set when the checks stopped without a verdict (timeout); no further refutations from it.
    pub inconclusive: Option<String>,
}

impl ImplRound {
    /// The check proved every assertion of the implementation under its assignment.
    pub fn valid(&self) -> bool {
        self.refuted.is_empty() && self.errors.is_empty() && self.inconclusive.is_none()
    }
}

/// The raw result of [`check`]: refuted candidates and non-candidate failures.
pub struct Checked {
    pub refuted: Vec<Name>,
    pub failures: Vec<Failure>,
    pub inconclusive: Option<String>,
    /// Solver calls made.
    pub checks: usize,
}

/// Statistics and the final assignment.
#[derive(Clone, Debug, Default)]
pub struct HoudiniStats {
    /// Candidates, in program order.
    pub candidates: Vec<Name>,
    pub assignment: Assignment,
    /// Number of candidates that stayed true.
    pub kept: usize,
    pub rounds: usize,
    /// Number of VC checks run by Houdini (not counting the final verification).
    pub checks: usize,
    /// Wall time of the Houdini phase.
    pub time: std::time::Duration,
    /// Where `{:candidate}` clauses came from (their generated guard and the clause's span).
    pub origins: Vec<(Name, Span)>,
    /// The search stopped at a non-candidate failure (Boogie's abort): the assignment is not
    /// a fixpoint, and the failure is reported.
    pub stopped: bool,
}

impl HoudiniStats {
    /// The assignment as Boogie's `/printAssignment` prints it.
    pub fn format_assignment(&self) -> String {
        let mut out = String::from("Assignment computed by Houdini:\n");
        for c in &self.candidates {
            let v = self.assignment.get(c).copied().unwrap_or(false);
            out.push_str(&format!("{} = {}\n", c, if v { "True" } else { "False" }));
        }
        out
    }
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
        if trace_enabled() {
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

/// Whether `KIVL_TRACE` asks for a line per solver check on stderr (for profiling).
pub fn trace_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("KIVL_TRACE").is_some())
}

/// Runs Houdini (Boogie's `/contractInfer`). `mentions[i]` are the candidates implementation
/// `i` mentions; `run_round(assignment, worklist)` checks the listed implementations (possibly
/// in parallel) and returns each one's [`ImplRound`] with its number of checks.
///
/// As in Boogie: refutations are applied after each round and the implementations that refuted
/// something or mention a refuted candidate are checked again; a non-candidate failure *stops*
/// the search: the assignment stays as it is (that round's refutations are not applied), and
/// the implementations still waiting are checked once more under it without refuting anything.
/// Returns the statistics and each implementation's last round, which decides its outcome.
pub fn fixpoint<F>(
    candidates: &[Name],
    mentions: &[HashSet<Name>],
    mut run_round: F,
) -> (HoudiniStats, Vec<Option<ImplRound>>)
where
    F: FnMut(&Assignment, &[usize]) -> Vec<(usize, ImplRound, usize)>,
{
    let start = std::time::Instant::now();
    let mut assignment: Assignment = candidates.iter().map(|c| (c.clone(), true)).collect();
    let mut worklist: Vec<usize> = (0..mentions.len()).collect();
    let mut stats = HoudiniStats { candidates: candidates.to_vec(), ..Default::default() };
    let mut last: Vec<Option<ImplRound>> = vec![None; mentions.len()];
    // Implementations whose check timed out are not checked again (Boogie's black list).
    let mut given_up: HashSet<usize> = HashSet::default();
    while !worklist.is_empty() {
        stats.rounds += 1;
        let results = run_round(&assignment, &worklist);
        let mut newly: HashSet<Name> = HashSet::default();
        let mut refuters: HashSet<usize> = HashSet::default();
        let mut stop = false;
        for (i, r, checks) in results {
            stats.checks += checks;
            if !r.errors.is_empty() {
                stop = true;
            }
            if r.inconclusive.is_some() && r.refuted.is_empty() {
                given_up.insert(i);
            }
            if !r.refuted.is_empty() {
                refuters.insert(i);
                newly.extend(r.refuted.iter().cloned());
            }
            last[i] = Some(r);
        }
        if stop {
            stats.stopped = true;
            // Boogie's flush: the rest is checked under the current assignment.
            let rest: Vec<usize> =
                refuters.iter().copied().filter(|&i| last[i].as_ref().is_some_and(|r| r.errors.is_empty())).collect();
            if !rest.is_empty() {
                stats.rounds += 1;
                for (i, r, checks) in run_round(&assignment, &rest) {
                    stats.checks += checks;
                    last[i] = Some(r);
                }
            }
            break;
        }
        if newly.is_empty() {
            break;
        }
        for c in &newly {
            assignment.insert(c.clone(), false);
        }
        worklist = (0..mentions.len())
            .filter(|i| {
                !given_up.contains(i) && (refuters.contains(i) || mentions[*i].iter().any(|c| newly.contains(c)))
            })
            .collect();
    }
    stats.kept = assignment.values().filter(|v| **v).count();
    stats.time = start.elapsed();
    stats.assignment = assignment;
    (stats, last)
}

use ivl::visit::all_names;

/// Replaces each `{:candidate}` clause φ (invariant, requires, ensures, assert) by `b ==> φ` for
/// a fresh `const {:existential true} b: bool;`, and removes the attribute. Returns the new
/// program and each guard with the span of its clause.
pub fn guard_candidates(program: &Program) -> (Program, Vec<(Name, Span)>) {
    struct Guard {
        taken: HashSet<Name>,
        next: usize,
        made: Vec<(Name, Span)>,
    }
    impl Guard {
        fn guard(&mut self, attrs: &mut Vec<Attribute>, expr: &mut Expr, span: Span) {
            if !has_attr(attrs, "candidate") {
                return;
            }
            attrs.retain(|a| a.name.as_str() != "candidate");
            let name = loop {
                self.next += 1;
                let n = Name::from(format!("kivl$candidate{}", self.next));
                if !self.taken.contains(&n) {
                    break n;
                }
            };
            self.taken.insert(name.clone());
            self.made.push((name.clone(), span));
            let body = std::mem::replace(expr, Expr::bool(true));
            *expr = Expr::implies(Expr::var(name, span), body);
        }
    }
    impl VisitMut for Guard {
        fn visit_contract(&mut self, c: &mut Contract) {
            self.guard(&mut c.attrs, &mut c.expr, c.span);
        }
        fn visit_invariant(&mut self, i: &mut Invariant) {
            self.guard(&mut i.attrs, &mut i.expr, i.span);
        }
        fn visit_stmt(&mut self, s: &mut Stmt) {
            let span = s.span;
            if let StmtKind::Assert { attrs, expr } = &mut s.kind {
                self.guard(attrs, expr, span);
            }
            walk_stmt_mut(self, s);
        }
        fn visit_expr(&mut self, _e: &mut Expr) {}
    }
    let mut g = Guard { taken: all_names(program).into_iter().collect(), next: 0, made: Vec::new() };
    let mut p = program.clone();
    g.visit_program(&mut p);
    for (name, span) in &g.made {
        p.decls.push(Decl {
            kind: DeclKind::Const(ConstDecl {
                attrs: vec![Attribute {
                    name: Ident::new("existential", *span),
                    args: vec![AttrArg::Expr(Expr::bool(true))],
                    span: *span,
                }],
                unique: false,
                names: vec![Ident::new(name.clone(), *span)],
                ty: Type::bool(),
                order_spec: None,
            }),
            span: *span,
        });
    }
    (p, g.made)
}
