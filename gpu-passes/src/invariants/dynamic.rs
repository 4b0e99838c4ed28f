//! Dynamic candidate killing: before Houdini, run the kernel concretely on a few random inputs
//! and schedules with the interleaving interpreter ([`crate::interleaving`]) and drop every
//! candidate that some run refutes (GPUVerify's "dynamic" engine; seed 001 §6 plans "dynamic
//! analysis to quickly eliminate incorrect candidate invariants").
//!
//! Why it is sound: dropping candidates never makes a kernel verify — Houdini and the final
//! check only ever assume candidates they also prove. Why it loses nothing: a candidate that is
//! false at a loop head in a real execution is false in a reachable state of the two-thread
//! program, so Houdini would refute it too; the runs only save Houdini's solver calls.
//!
//! What is evaluated: the interpreter checks loop invariants at every arrival at the loop head
//! (entry and after each iteration), contracts at calls and returns, and reads `__read(A)`,
//! `__write_offset(A)`, … from the thread's own access log since its last barrier, exactly the
//! meaning of docs/kbpl.md §5.2. Candidates whose meaning in a concrete run differs from their
//! meaning in the lock-step two-thread program are not evaluated: those with `__enabled()`
//! (always true for a running thread, but a predicate in the lock-step program), with
//! `__other(e)` (two modelled threads), with `__uniform` other than as the whole clause, and
//! `__uniform(e)` when several groups run (the interpreter compares all threads of the grid;
//! the reduction's one-group variant only threads of one group).
//!
//! A run stops at the first failing check, so the kernel is re-run with the same seed without
//! the refuted candidate until the seed shows no more failures. Runs use the sizes the kernel
//! is verified for; with symbolic sizes, a small group.

use super::{candidate_of_span, retain_clauses, CandidateInfo};
use crate::interleaving::{Interpreter, RunConfig, RunOutcome};
use ivl::ast::*;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// Limits of the dynamic phase.
#[derive(Clone, Debug)]
pub struct DynamicOptions {
    /// Seeds to run (each re-run after a refutation).
    pub seeds: u64,
    /// Runs in total, refutations included.
    pub max_runs: u64,
    /// Instructions per run (all threads together).
    pub max_steps: u64,
    /// Wall time of the whole phase.
    pub time_limit: Duration,
}

impl Default for DynamicOptions {
    fn default() -> Self {
        DynamicOptions { seeds: 3, max_runs: 150, max_steps: 400_000, time_limit: Duration::from_secs(4) }
    }
}

/// What the dynamic phase found.
#[derive(Clone, Debug, Default)]
pub struct DynamicResult {
    /// Candidates refuted by a run.
    pub killed: BTreeSet<usize>,
    /// Candidates that were evaluated.
    pub evaluated: usize,
    pub runs: u64,
    /// Runs that completed or found an error (not abandoned, not infeasible).
    pub useful_runs: u64,
    pub time: Duration,
    /// Why runs were impossible, if they were.
    pub skipped: Option<String>,
}

/// Whether a candidate means the same in a concrete run as in the two-thread program.
fn evaluable(e: &Expr, one_group: bool) -> bool {
    if let ExprKind::Call(f, args) = &e.kind {
        if f.as_str() == "__uniform" && args.len() == 1 {
            return one_group && !mentions_builtin(&args[0], &["__uniform", "__other", "__enabled"]);
        }
    }
    !mentions_builtin(e, &["__uniform", "__other", "__enabled"])
}

fn mentions_builtin(e: &Expr, names: &[&str]) -> bool {
    struct Find<'a>(&'a [&'a str], bool);
    impl ivl::visit::Visit for Find<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call(f, _) = &e.kind {
                if self.0.contains(&f.as_str()) {
                    self.1 = true;
                }
            }
            ivl::visit::walk_expr(self, e)
        }
    }
    let mut f = Find(names, false);
    ivl::visit::Visit::visit_expr(&mut f, e);
    f.1
}

/// The sizes to run with: the kernel's, or small ones for symbolic dimensions.
/// A work-group size and a grid size to run with.
type RunSizes = (Option<Vec<u64>>, Option<Vec<u64>>);

fn configs(kopts: &crate::two_thread::KernelOptions) -> Vec<RunSizes> {
    match (&kopts.local_size, &kopts.num_groups) {
        (Some(l), g) => vec![(Some(l.clone()), g.clone().or(Some(vec![1])))],
        (None, g) => {
            let mut v = Vec::new();
            for l in [vec![4], vec![4, 4], vec![2, 2, 2], vec![8]] {
                v.push((Some(l.clone()), g.clone().or(Some(vec![1]))));
                if g.is_none() {
                    v.push((Some(l), Some(vec![2])));
                }
            }
            v.push((None, g.clone()));
            v
        }
    }
}

/// Runs `program` (with the candidates of `info` in it) and returns the candidates refuted.
pub fn kill(
    program: &Program,
    info: &CandidateInfo,
    kopts: &crate::two_thread::KernelOptions,
    opts: &DynamicOptions,
) -> DynamicResult {
    let start = Instant::now();
    let mut res = DynamicResult::default();
    if info.candidates.is_empty() {
        return res;
    }
    // Find sizes the kernel runs with (axioms may rule some out).
    let mut chosen = None;
    for (local, groups) in configs(kopts) {
        let one_group = groups.as_ref().is_some_and(|g| g.iter().product::<u64>() == 1);
        let live: BTreeSet<usize> =
            info.candidates.iter().filter(|c| evaluable(&c.expr, one_group)).map(|c| c.id).collect();
        let prog = dynamic_program(program, &live);
        let interp = match Interpreter::new(&prog) {
            Ok(i) => i,
            Err(d) => {
                res.skipped = Some(d.first().map(|d| d.message.clone()).unwrap_or_default());
                res.time = start.elapsed();
                return res;
            }
        };
        let cfg = RunConfig {
            local_size: local,
            num_groups: groups,
            seed: 0,
            benign_tolerance: kopts.benign_tolerance,
            max_steps: opts.max_steps,
            ..RunConfig::default()
        };
        res.runs += 1;
        match interp.run(&cfg) {
            RunOutcome::Invalid(d) => res.skipped = Some(d.first().map(|d| d.message.clone()).unwrap_or_default()),
            RunOutcome::Internal(m) => res.skipped = Some(m),
            first => {
                chosen = Some((cfg, live, prog, interp, first));
                break;
            }
        }
    }
    let Some((cfg, mut live, mut prog, mut interp, first)) = chosen else {
        res.time = start.elapsed();
        return res;
    };
    res.skipped = None;
    res.evaluated = live.len();
    let mut pending = Some(first);
    'seeds: for seed in 0..opts.seeds {
        loop {
            let outcome = match pending.take() {
                Some(o) if seed == 0 => o,
                _ => {
                    if res.runs >= opts.max_runs || start.elapsed() > opts.time_limit {
                        break 'seeds;
                    }
                    res.runs += 1;
                    interp.run(&RunConfig { seed, ..cfg.clone() })
                }
            };
            let refuted: Vec<usize> = match &outcome {
                RunOutcome::Error(e) => e
                    .all()
                    .filter_map(|x| candidate_of_span(x.diagnostic.primary.span))
                    .filter(|id| live.contains(id))
                    .collect(),
                _ => Vec::new(),
            };
            if matches!(outcome, RunOutcome::Completed(_) | RunOutcome::Error(_)) {
                res.useful_runs += 1;
            }
            if refuted.is_empty() {
                break;
            }
            for id in refuted {
                live.remove(&id);
                res.killed.insert(id);
            }
            prog = dynamic_program(&prog, &live);
            interp = match Interpreter::new(&prog) {
                Ok(i) => i,
                Err(_) => break 'seeds,
            };
        }
    }
    res.time = start.elapsed();
    res
}

/// The program the interpreter runs: only the `live` candidates (as plain checks), no other
/// `{:candidate}` clause (a user's wrong guess would stop every run).
fn dynamic_program(program: &Program, live: &BTreeSet<usize>) -> Program {
    retain_clauses(program, &|_, span| candidate_of_span(span).is_some_and(|id| live.contains(&id)))
}
