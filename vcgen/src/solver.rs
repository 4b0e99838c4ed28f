//! Discharging verification conditions with Z3 (in process, through the `z3` crate): solver
//! options, checks under assumptions, and the enumeration of several failing assertions per
//! implementation.
//!
//! Why a solver per implementation that lives across checks: Houdini (`crate::houdini`) and
//! error enumeration check the *same* VC many times under different assumptions (candidate
//! values, assertions already reported). The VC is asserted once; each check passes its
//! assumptions to `check_assumptions`, so Z3 keeps what it learnt between checks.
//!
//! Options: the ones Boogie 2.4.1 sends to Z3 (`AUTO_CONFIG=false`, `smt.mbqi=false`,
//! `smt.qi.eager_threshold=100`, `smt.bv.reflect=true`, `nnf.sk_hack=true`, `type_check=true`,
//! as seen in its `/proverLog`) plus GPUVerify's `smt.relevancy=0`, for plain Boogie too: Z3's
//! default 2 (Boogie's) lets Z3 instantiate a lambda inside a quantified axiom, which 0 does
//! not, but it lost `tests/boogie/type_quant_assert.bpl` (a goal whose instances share no
//! ground term with the axiom), so the trade stays open. The time limit is the watchdog's
//! interrupt at the end of a search's budget (`crate::watchdog`); a check that runs out of time is
//! `unknown`, never a hang. Z3's own `timeout` parameter is not set: in Z3 4.8.10 to 4.8.12 it arms
//! a `scoped_timer` from a process-wide pool of timer threads, and a check's timer can be handed to
//! another thread's check before the first check's teardown sees it idle, so a trivial check then
//! waits (spinning) until the other thread's check ends (Z3 pull request 5371; seen with `--jobs 2`
//! in `tests/cli_stop_at_first_error.rs`, a one-assertion check waiting for a 300 s one).
//!
//! Results: `unsat` means every (checked) assertion holds; `sat` gives a model from which
//! [`Vc::failure`] reads the failing assertion and trace; `unknown` caused by a timeout or a
//! resource limit is inconclusive, while `unknown` because E-matching is incomplete for
//! quantifiers comes with a partial model: if it exhibits a failing assertion, that is reported
//! (as Boogie reports the labels of such a run: a possible error, never a wrong "verified").

use crate::wp::{Failure, Vc};
use std::sync::Once;
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

static CONFIGURE: Once = Once::new();

/// The memory Z3 may use, in MB (`verify --memory-limit`): 16 GiB unless set.
static MEMORY_LIMIT_MB: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(16384);

/// Sets the memory Z3 may use, in MB. Z3 then gives up on a check that needs more (unknown,
/// "max. memory exceeded": inconclusive) rather than take the machine.
pub fn set_memory_limit_mb(mb: u64) {
    MEMORY_LIMIT_MB.store(mb, std::sync::atomic::Ordering::Relaxed);
    if CONFIGURE.is_completed() {
        z3::set_global_param("memory_max_size", &mb.to_string());
    }
}

/// Global Z3 parameters, set once per process before any solver is created.
pub fn configure_z3() {
    CONFIGURE.call_once(|| {
        for (k, v) in [
            ("auto_config", "false"),
            ("smt.mbqi", "false"),
            ("smt.qi.eager_threshold", "100"),
            ("smt.bv.reflect", "true"),
            ("nnf.sk_hack", "true"),
            ("type_check", "true"),
            ("smt.relevancy", "0"),
        ] {
            z3::set_global_param(k, v);
        }
        let mb = MEMORY_LIMIT_MB.load(std::sync::atomic::Ordering::Relaxed);
        z3::set_global_param("memory_max_size", &mb.to_string());
    });
}

/// The outcome of one check.
#[derive(Clone, Debug)]
pub enum Check {
    /// No checked assertion can fail.
    Valid,
    Failure(Failure),
    /// Timeout, resource limit, or an unknown result without a usable model.
    Inconclusive(String),
}

/// A solver holding one VC.
pub struct VcSolver {
    pub solver: Solver,
    pub vc: Vc,
    /// `--search-timeout`: the time one implementation's search gets in all
    /// ([`VcSolver::begin`]).
    timeout_ms: Option<u64>,
    /// `--timeout`: the end of the whole run, which no search goes past.
    run_deadline: Option<ivl::deadline::Deadline>,
    /// When the current search (started by [`VcSolver::begin`]) must have ended.
    deadline: std::sync::Mutex<Option<SearchEnd>>,
    /// Where its checks are also counted ([`VcSolver::counting_in`]).
    also_counted: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
}

/// When a search must end, and the limit that says so: its time and option, for the watchdog
/// and the message.
#[derive(Clone, Copy)]
struct SearchEnd {
    at: Instant,
    limit: Duration,
    option: &'static str,
}

/// One solver of a race (`verify --portfolio`, `crate::engine`): its Z3 parameters, and how it
/// runs Houdini.
pub struct Racer {
    pub params: &'static [(&'static str, u32)],
    /// Report each failure at once (one failing assertion per check), instead of whole rounds
    /// of up to the error limit as on one thread. Whole rounds keep a refuted candidate's
    /// assumptions for the rest of the round, which makes the next failures cheap; single
    /// failures share refutations sooner and take Z3 along another path to the same fixpoint.
    /// Each is much faster than the other on some programs of the GPUVerify corpus.
    pub each_failure: bool,
}

/// The racers: racer `k` is `RACERS[k % RACERS.len()]`, from the second lap on with random
/// seed `k`. Racer 0's parameters are those of every other check (Boogie's options). Racers
/// differ in the random seed and in the phase Z3 gives a case split first, which changes its
/// search more than a new seed: one query of `myocyte` takes 9 s with the default (phase
/// caching) and 0.8 s with "always false", `GICOV`'s 15 s and 10.8 s, while `qssa` goes the
/// other way (45 s and over 60 s). A race takes the faster.
pub const RACERS: [Racer; 4] = [
    Racer { params: &[], each_failure: true },
    Racer { params: &[("random_seed", 1)], each_failure: true },
    Racer { params: &[("phase_selection", 0)], each_failure: false },
    Racer { params: &[("phase_selection", 5), ("random_seed", 2)], each_failure: true },
];

/// Racer `k` ([`RACERS`]).
pub fn racer(k: usize) -> &'static Racer {
    &RACERS[k % RACERS.len()]
}

/// The racer the `k`-th solver of a race runs (an index into [`RACERS`], from the second lap
/// on a new seed). With candidates, sharing refutations is what pays, and two seeds of the
/// usual configuration share best (`scripts/houdini-parallel-bench.py`). Without candidates
/// the race is one check of the program as given, where a seed changes little and the phase
/// much: the second solver takes the phase-0 racer. On the corpus's slowest candidate-free
/// files, phase 0 against the default, one thread each: myocyte 0.9 s / 6.9 s, its known-bug
/// twin 17.9 s / 26.2 s, ratxb 5.4 s / 9.0 s, GICOV 13.0 s / 14.0 s, ratt 35.8 s / 31.5 s,
/// qssa over 60 s / 43.7 s.
pub fn race_position(k: usize, candidates: bool) -> u32 {
    // Without candidates, racers 1 (seed 1) and 2 (phase 0) trade places.
    let racer = match (candidates, k) {
        (false, 1) => 2,
        (false, 2) => 1,
        _ => k,
    };
    racer as u32
}

/// Solver parameters: racer `racer`'s configuration ([`RACERS`]; 0 is the usual one). No
/// `timeout`: the watchdog keeps the time limit (see the module doc).
fn params(racer_index: u32) -> Params {
    let mut p = Params::new();
    // Z3's own SIGINT handler would cancel the running check and let kivl go on with a partial
    // result; kivl's handler (`src/interrupt.rs`) ends the process instead.
    p.set_bool("ctrl_c", false);
    let k = racer_index as usize;
    for &(name, v) in racer(k).params {
        p.set_u32(name, v);
    }
    if k >= RACERS.len() {
        p.set_u32("random_seed", racer_index);
    }
    p
}

/// Whether an `unknown` reason means the solver gave up (as opposed to incompleteness).
fn gave_up(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    r.contains("timeout")
        || r.contains("canceled")
        || r.contains("resource")
        || r.contains("memout")
        || r.contains("memory")
        || r.contains("interrupted")
}

impl VcSolver {
    /// Asserts `background` (axioms), the VC's definitions and its negation. `racer` picks the
    /// solver configuration ([`RACERS`]; 0 outside a race).
    pub fn new(background: &[Bool], vc: Vc, timeout_ms: Option<u64>, racer: u32) -> VcSolver {
        configure_z3();
        let solver = Solver::new();
        solver.set_params(&params(racer));
        for b in background {
            solver.assert(b);
        }
        // As Boogie does: the VC goes into a scope of its own, which also selects Z3's
        // incremental core, the one that keeps a model (a partial assignment) for `unknown`.
        solver.push();
        for d in &vc.defs {
            solver.assert(d);
        }
        solver.assert(vc.negated());
        VcSolver {
            solver,
            vc,
            timeout_ms,
            run_deadline: None,
            deadline: std::sync::Mutex::new(None),
            also_counted: None,
        }
    }

    /// Has Z3 take in the solver's assertions now, with a check whose assumptions contradict
    /// each other (`p` and `not p`: unsat as soon as it starts), rather than in the first real
    /// check. Z3 4.8.12 adds the assertions to its core at the start of the first check after
    /// they were asserted, and a `Z3_interrupt` in that phase leaves the solver without some
    /// of them: every later check then answers `sat` with models that violate the VC's
    /// definitions and show no failing assertion. For the solvers that another thread
    /// interrupts while they are still needed (asynchronous Houdini, `crate::engine`); not for
    /// the others, because the extra check changes Z3's later search (one lock-step kernel of
    /// the test corpus then gets `unknown` instead of its race). Not counted as a check.
    pub fn internalize(&self) {
        let p = Bool::fresh_const("kivl_internalize");
        let _ = self.solver.check_assumptions(&[p.clone(), p.not()]);
    }

    /// Also counts each check in `counter` (a cancellable run's, [`crate::engine::Cancel`], so
    /// that the checks of a run whose result is thrown away can be taken back from [`checks`]).
    pub fn counting_in(self, counter: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>) -> VcSolver {
        VcSolver { also_counted: counter, ..self }
    }

    /// Ends every search by `deadline` too (the run's `--timeout`).
    pub fn ending_by(self, deadline: Option<ivl::deadline::Deadline>) -> VcSolver {
        VcSolver { run_deadline: deadline, ..self }
    }

    /// Starts a search (one verification with its error enumeration, or one Houdini round):
    /// its checks share one `--search-timeout` budget, so finding the fifth counterexample does
    /// not get the full time limit again, and none goes past the run's deadline.
    pub fn begin(&self) {
        let own = self.timeout_ms.map(Duration::from_millis).map(|limit| SearchEnd {
            at: Instant::now() + limit,
            limit,
            option: "--search-timeout",
        });
        let run = self.run_deadline.map(|d| SearchEnd { at: d.at(), limit: d.limit(), option: "--timeout" });
        let end = match (own, run) {
            (Some(o), Some(r)) => Some(if r.at <= o.at { r } else { o }),
            (o, r) => o.or(r),
        };
        *self.deadline.lock().unwrap_or_else(|e| e.into_inner()) = end;
    }

    /// Checks under `assumptions` (candidate literals, disabled assertions), within what is
    /// left of the search's time budget: the watchdog interrupts the check when the search's
    /// deadline passes. The solver's parameters never change between checks: that would change
    /// Z3's search, and how much time is left depends on the machine's load, so the verdict
    /// would too (issue 23).
    pub fn check(&self, assumptions: &[Bool]) -> Check {
        let end = *self.deadline.lock().unwrap_or_else(|e| e.into_inner());
        // Registered with the watchdog also without a deadline, for `watchdog::cancel`.
        let _watch = match end {
            Some(e) => {
                if e.at <= Instant::now() {
                    return Check::Inconclusive(ivl::deadline::timed_out_after(e.limit, e.option));
                }
                crate::watchdog::watch(e.at, e.limit)
            }
            None => crate::watchdog::watch_unlimited(),
        };
        let check = self.check_now(assumptions);
        match (check, end) {
            // A check stopped at (or just before) the deadline, by the watchdog's interrupt
            // ("canceled"), ran out of time: say so, with the option.
            (Check::Inconclusive(_), Some(e)) if Instant::now() + Duration::from_millis(1500) >= e.at => {
                Check::Inconclusive(ivl::deadline::timed_out_after(e.limit, e.option))
            }
            (check, _) => check,
        }
    }

    fn check_now(&self, assumptions: &[Bool]) -> Check {
        CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(c) = &self.also_counted {
            c.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let _clock = crate::progress::SolverClock::start();
        match self.solver.check_assumptions(assumptions) {
            SatResult::Unsat => Check::Valid,
            SatResult::Sat => match self.solver.get_model().and_then(|m| self.vc.failure(&m)) {
                Some(f) => Check::Failure(f),
                None => Check::Inconclusive("the solver's model does not exhibit a failing assertion".into()),
            },
            SatResult::Unknown => {
                let reason = self.solver.get_reason_unknown().unwrap_or_else(|| "unknown".into());
                // Z3 4.8.12 gives "unknown" as the reason when it stops at `memory_max_size`, so
                // the memory it holds tells (it keeps what it allocated until the solver goes).
                let mb = MEMORY_LIMIT_MB.load(std::sync::atomic::Ordering::Relaxed);
                // SAFETY: a global query without arguments.
                let held = unsafe { z3_sys::Z3_get_estimated_alloc_size() };
                if reason.contains("memory") || held >= mb.saturating_mul(1 << 20) {
                    return Check::Inconclusive(format!("Z3 reached its memory limit ({mb} MB, --memory-limit)"));
                }
                if gave_up(&reason) {
                    return Check::Inconclusive(format!("solver gave up: {reason}"));
                }
                match self.solver.get_model().and_then(|m| self.vc.failure(&m)) {
                    // A partial model is trusted for the assertion it was found failing at
                    // (as Boogie does), not for other assertions it happens to falsify.
                    Some(f) => Check::Failure(Failure { also: Vec::new(), ..f }),
                    None => Check::Inconclusive(format!("solver returned unknown: {reason}")),
                }
            }
        }
    }

    /// The assumption that turns assertion `k` into an assumption.
    pub fn disable(&self, k: usize) -> Bool {
        self.vc.asserts[k].skip.clone()
    }

    /// Up to `limit` failing assertions under `base` assumptions: after each failure its
    /// assertion is assumed and the VC checked again. Returns the failures and, if the search
    /// stopped inconclusively, why.
    pub fn enumerate(&self, base: &[Bool], limit: usize) -> (Vec<Failure>, Option<String>) {
        self.begin();
        let mut assumptions: Vec<Bool> = base.to_vec();
        let mut failures = Vec::new();
        while failures.len() < limit.max(1) {
            let start = Instant::now();
            let check = self.check(&assumptions);
            if crate::trace::trace_enabled() {
                eprintln!("check {}: {:.3}s {check:?}", failures.len() + 1, start.elapsed().as_secs_f64());
            }
            match check {
                Check::Valid => return (failures, None),
                Check::Failure(f) => {
                    assumptions.push(self.disable(f.assert));
                    failures.push(f);
                }
                Check::Inconclusive(r) => return (failures, Some(r)),
            }
        }
        (failures, None)
    }
}

/// Solver checks made by this process (every check goes through [`VcSolver::check`]).
static CHECKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many solver checks this process has made: `kivl verify --format json` reports it, so that
/// a run answered from `--cache` can be seen to have done no solver work.
pub fn checks() -> usize {
    CHECKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Takes `n` checks back from [`checks`]: those of a run that was cancelled and whose result
/// was thrown away (the driver's speculative second search, which one thread would not have
/// run), so that the count does not depend on `--jobs` or on how far that run got.
pub fn discount(n: usize) {
    CHECKS.fetch_sub(n, std::sync::atomic::Ordering::Relaxed);
}
