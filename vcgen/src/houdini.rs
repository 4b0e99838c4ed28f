//! Houdini: the largest set of candidate annotations that can be assumed true such that every
//! candidate annotation holds (Flanagan & Leino, "Houdini, an annotation assistant for
//! ESC/Java", 2001; Boogie's `/contractInfer`; seed 001 §4.3, where GPUVerify generates the
//! candidate loop invariants and contracts that Houdini filters).
//!
//! Candidates are boolean constants `const {:existential true} b: bool;` used as guards
//! `b ==> φ` (Boogie's convention, and GPUVerify's output), and clauses marked `{:candidate}`
//! (KBPL.md §2), which [`guard_candidates`] turns into such guards before desugaring.
//!
//! The algorithm ([`fixpoint`]): start with every candidate true; check the implementations'
//! VCs under the current assignment; a failing assertion `b ==> φ` whose guard `b` is a true
//! candidate refutes `b` (set it false); a failing assertion that no candidate guards refutes
//! nothing — it is assumed for the rest of that check so that the search continues, and it is
//! reported by the final verification run. Repeat until no candidate is refuted. Refutation is
//! monotone (fewer true candidates means fewer assumptions), so the result is the unique
//! greatest fixpoint whatever the order of checks — which lets independent implementations be
//! checked in parallel, round by round, and re-checked only when a candidate they mention was
//! refuted elsewhere.
//!
//! The VC of each implementation is built and asserted once: candidates enter each check as
//! assumption literals `b` / `¬b` ([`refute`]).

use crate::solver::{Check, VcSolver};
use ivl::ast::*;
use ivl::visit::{walk_expr, walk_stmt_mut, Visit, VisitMut};
use std::collections::{BTreeMap, HashMap, HashSet};
use z3::ast::Bool;

/// A value for every candidate.
pub type Assignment = BTreeMap<Name, bool>;

/// What one implementation's check in one round found.
#[derive(Clone, Debug, Default)]
pub struct ImplRound {
    /// Candidates refuted by this implementation.
    pub refuted: Vec<Name>,
    /// Set when the checks stopped without a verdict (timeout); no further refutations from it.
    pub inconclusive: Option<String>,
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

/// Checks one implementation under `assignment`, refuting candidates until its candidate
/// assertions hold. Returns the refuted candidates and the number of checks.
pub fn refute(s: &VcSolver, candidates: &[(Name, Bool)], assignment: &Assignment) -> (ImplRound, usize) {
    let mut local = assignment.clone();
    let mut disabled: Vec<Bool> = Vec::new();
    let mut round = ImplRound::default();
    let mut checks = 0;
    // Each iteration refutes a candidate or disables an assertion, so this terminates.
    let bound = s.vc.asserts.len() + candidates.len() + 1;
    for _ in 0..bound {
        let mut assumptions = literals(candidates, &local);
        assumptions.extend(disabled.iter().cloned());
        checks += 1;
        match s.check(&assumptions) {
            Check::Valid => break,
            Check::Failure(f) => match &s.vc.asserts[f.assert].guard {
                Some(g) if local.get(g).copied().unwrap_or(false) => {
                    local.insert(g.clone(), false);
                    round.refuted.push(g.clone());
                }
                _ => disabled.push(s.disable(f.assert)),
            },
            Check::Inconclusive(r) => {
                round.inconclusive = Some(r);
                break;
            }
        }
    }
    (round, checks)
}

/// Runs Houdini to its fixpoint. `mentions[i]` are the candidates implementation `i` mentions;
/// `run_round(assignment, worklist)` checks the listed implementations (possibly in parallel)
/// and returns each one's [`ImplRound`] with its number of checks.
pub fn fixpoint<F>(candidates: &[Name], mentions: &[HashSet<Name>], mut run_round: F) -> HoudiniStats
where
    F: FnMut(&Assignment, &[usize]) -> Vec<(usize, ImplRound, usize)>,
{
    let start = std::time::Instant::now();
    let mut assignment: Assignment = candidates.iter().map(|c| (c.clone(), true)).collect();
    let mut worklist: Vec<usize> = (0..mentions.len()).collect();
    let mut stats = HoudiniStats { candidates: candidates.to_vec(), ..Default::default() };
    while !worklist.is_empty() {
        stats.rounds += 1;
        let results = run_round(&assignment, &worklist);
        let mut own: HashMap<usize, HashSet<Name>> = HashMap::new();
        let mut newly: HashSet<Name> = HashSet::new();
        for (i, r, checks) in results {
            stats.checks += checks;
            newly.extend(r.refuted.iter().cloned());
            own.insert(i, r.refuted.into_iter().collect());
        }
        if newly.is_empty() {
            break;
        }
        for c in &newly {
            assignment.insert(c.clone(), false);
        }
        worklist = (0..mentions.len())
            .filter(|i| {
                let mine = own.get(i);
                mentions[*i].iter().any(|c| newly.contains(c) && !mine.is_some_and(|m| m.contains(c)))
            })
            .collect();
    }
    stats.kept = assignment.values().filter(|v| **v).count();
    stats.time = start.elapsed();
    stats.assignment = assignment;
    stats
}

/// Every identifier in a program (to choose names that clash with none).
fn all_names(program: &Program) -> HashSet<Name> {
    struct Names(HashSet<Name>);
    impl Visit for Names {
        fn visit_ident(&mut self, i: &Ident) {
            self.0.insert(i.name.clone());
        }
        fn visit_expr(&mut self, e: &Expr) {
            walk_expr(self, e)
        }
    }
    let mut n = Names(HashSet::new());
    n.visit_program(program);
    n.0
}

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
    let mut g = Guard { taken: all_names(program), next: 0, made: Vec::new() };
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
