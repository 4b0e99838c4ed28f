//! The verification engine: from a program to one verdict per implementation.
//!
//! Pipeline per implementation (Boogie's, see `crate::desugar` for the first half):
//! desugar → [`crate::passify`] → [`crate::wp`] (linear-size VC) → [`crate::solver`] (Z3) →
//! [`crate::report`] (diagnostics); with `houdini`, [`crate::houdini`] first fixes the values
//! of the candidates and the final run assumes them.
//!
//! Parallelism: a dedicated rayon pool of `jobs` threads runs one *worker* per thread. Z3
//! objects cannot leave the thread (and context) that made them, so each worker has its own
//! Z3 context and program encoding, takes implementations from a shared counter, and keeps the
//! solver of each implementation it took for the whole run: Houdini rounds and the final
//! verification reuse it (the VC is asserted once). The calling thread coordinates: it sends
//! each worker the assignment and the implementations of its own to check, and gathers plain
//! Rust results, which are returned in program order whatever the schedule.

use crate::desugar::{self, DesugarOptions};
use crate::houdini::{self, Assignment, HoudiniStats, ImplRound};
use crate::passify::{passify, Passive};
use crate::report::failure_diagnostic;
use crate::smt::Encoder;
use crate::solver::{configure_z3, VcSolver};
use crate::wp::{self, Failure};
use crate::HashSet;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::{Diagnostic, ErrorKind};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use z3::ast::Bool;

#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Worker threads (0: one per available core).
    pub jobs: usize,
    /// Time limit per solver check.
    pub timeout_secs: Option<u64>,
    /// Infer candidate annotations first (Boogie's `/contractInfer`).
    pub houdini: bool,
    /// Fill [`ProgramResult::assignment_text`] (Boogie's `/printAssignment`).
    pub print_assignment: bool,
    /// Failing assertions reported per implementation (Boogie's `/errorLimit`, default 5).
    pub error_limit: usize,
    /// Houdini with fewer implementations than `jobs`: check each implementation on several
    /// solvers, each owning a share of its assertions (the others assumed). Off by default:
    /// on the GPUVerify corpus's slow files it is as often slower as faster (a share can take
    /// Z3 longer than the whole VC); `scripts/houdini-parallel-bench.py` measures it.
    pub split_vc: bool,
    /// Houdini with fewer implementations than `jobs`: check each implementation on several
    /// solvers at once, each with the whole VC and its own configuration (the first has the
    /// usual one, [`crate::solver`]'s racers), without rounds: each refutation goes to the
    /// others as soon as it is found, and the first solver to prove the VC under the current
    /// assignment ends the race. Z3's time on one query varies several-fold with its
    /// configuration; a race gets the fastest. The refutations found may differ from one-thread
    /// runs, the fixpoint does not (up to solver incompleteness). Ignored with `split_vc`.
    pub portfolio: bool,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            jobs: 0,
            timeout_secs: None,
            houdini: false,
            print_assignment: false,
            error_limit: 5,
            split_vc: false,
            portfolio: false,
        }
    }
}

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
    fn invalid(errors: Vec<Diagnostic>) -> ProgramResult {
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
    /// one error, as in Boogie's "N verified, M errors".
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut c = (0, 0, 0);
        for r in &self.impls {
            match &r.outcome {
                Outcome::Verified => c.0 += 1,
                Outcome::Errors(e) => c.1 += e.len(),
                Outcome::Inconclusive(_) => c.2 += 1,
            }
        }
        c
    }
}

/// Verifies every implementation of `program` (a checked program; docs/kbpl.md §2-3 semantics).
pub fn verify_program(program: &Program, opts: &VerifyOptions) -> ProgramResult {
    let (guarded, origins);
    let program = if opts.houdini {
        (guarded, origins) = houdini::guard_candidates(program);
        &guarded
    } else {
        origins = Vec::new();
        program
    };
    let dopts = DesugarOptions { drop_candidates: !opts.houdini, ..Default::default() };
    let inputs = match desugar::prepare_with_options(program, &dopts) {
        Ok(v) => v,
        Err(d) => return ProgramResult::invalid(d),
    };
    let impls: Vec<BlockImpl> = inputs.into_iter().map(|v| v.imp).collect();
    let mut result = verify_block_impls(program, &impls, opts);
    if let Some(h) = &mut result.houdini {
        h.origins = origins;
    }
    result
}

/// Verifies desugared implementations (acyclic, call-free, `old`-free block bodies) in the
/// context of `program`'s declarations.
pub fn verify_block_impls(program: &Program, impls: &[BlockImpl], opts: &VerifyOptions) -> ProgramResult {
    configure_z3();
    let jobs =
        if opts.jobs == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { opts.jobs }
            .max(1);
    // With Houdini, `split_vc` or `portfolio`, and fewer implementations than threads, each
    // implementation is checked on `share` solvers at once: each owns a share of its assertions
    // (`split_vc`) or races the others on the whole VC (`portfolio`).
    let several = opts.split_vc || opts.portfolio;
    let share = if opts.houdini && several && !impls.is_empty() && impls.len() < jobs { jobs / impls.len() } else { 1 };
    let workers = jobs.min(impls.len() * share).max(1);
    let candidates: Vec<Name> = if opts.houdini { Encoder::existentials(program) } else { Vec::new() };
    let globals = global_vars(program);
    // Large stacks: encoding and Z3 recurse over expressions nested thousands deep.
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(workers).stack_size(WORKER_STACK).build() {
        Ok(p) => p,
        Err(e) => {
            return ProgramResult::invalid(vec![Diagnostic::new(
                ErrorKind::Unsupported,
                format!("cannot start worker threads: {e}"),
                Span::DUMMY,
            )])
        }
    };
    let shared = Shared {
        program,
        impls,
        globals: &globals,
        candidates: &candidates,
        opts,
        share,
        race: share > 1 && !opts.split_vc,
        workers,
        stop: AtomicBool::new(false),
        active: AtomicUsize::new(0),
        next: AtomicUsize::new(0),
        contexts: Mutex::new(vec![None; workers]),
    };
    let (to_coord, from_workers) = channel::<Msg>();
    let mut to_workers = Vec::new();
    pool.in_place_scope(|s| {
        for w in 0..workers {
            let (tx, rx) = channel::<Cmd>();
            to_workers.push(tx);
            let to_coord = to_coord.clone();
            let shared = &shared;
            s.spawn(move |_| run_worker(w, shared, Mutex::new(rx), to_coord));
        }
        drop(to_coord);
        let result = coordinate(&shared, workers, &to_workers, &from_workers);
        // Close the command channels: workers waiting for Houdini rounds stop.
        to_workers.clear();
        result
    })
}

/// Stack size of the solver threads (expressions of the corpus nest ~5000 deep).
pub const WORKER_STACK: usize = 256 << 20;

/// Everything workers read.
struct Shared<'a> {
    program: &'a Program,
    impls: &'a [BlockImpl],
    globals: &'a [TypedIdent],
    candidates: &'a [Name],
    opts: &'a VerifyOptions,
    /// Solvers per implementation (Houdini only); unit `u` is share `u % share` of
    /// implementation `u / share`.
    share: usize,
    /// The shares race on the whole VC (portfolio) instead of splitting its assertions.
    race: bool,
    workers: usize,
    /// Set when asynchronous Houdini has its result: units still checking stop.
    stop: AtomicBool,
    /// Workers inside [`async_unit`].
    active: AtomicUsize,
    next: AtomicUsize,
    /// Each worker's Z3 context while it is alive (the raw pointer), for interrupting the
    /// losers of a portfolio race. A worker clears its entry before its context is dropped,
    /// under the same lock under which the coordinator interrupts.
    contexts: Mutex<Vec<Option<usize>>>,
}

impl Shared<'_> {
    /// The solver configuration of unit `unit`: in a race, its place in the race
    /// ([`crate::solver::race_position`]); otherwise the usual one (0).
    fn racer(&self, unit: usize) -> u32 {
        if self.race {
            crate::solver::race_position(unit % self.share, !self.candidates.is_empty())
        } else {
            0
        }
    }

    /// The published contexts (a panicking holder cannot leave the list half-written).
    fn contexts(&self) -> std::sync::MutexGuard<'_, Vec<Option<usize>>> {
        self.contexts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Interrupts the solver call worker `w` is running, if any.
    fn interrupt(&self, w: usize) {
        let contexts = self.contexts();
        if let Some(ctx) = contexts.get(w).copied().flatten().and_then(|c| std::ptr::NonNull::new(c as *mut _)) {
            // SAFETY: the context is alive while its entry is set (the worker clears it, under
            // this lock, before the context is dropped), and `Z3_interrupt` may be called from
            // any thread.
            unsafe { z3_sys::Z3_interrupt(ctx) };
        }
    }
}

/// Publishes the current thread's Z3 context in [`Shared::contexts`] and withdraws it on drop
/// (also when the worker unwinds).
struct ContextEntry<'a> {
    shared: &'a Shared<'a>,
    worker: usize,
}

impl<'a> ContextEntry<'a> {
    fn publish(shared: &'a Shared<'a>, worker: usize) -> ContextEntry<'a> {
        let ctx = z3::Context::thread_local().get_z3_context().as_ptr() as usize;
        shared.contexts()[worker] = Some(ctx);
        ContextEntry { shared, worker }
    }
}

impl Drop for ContextEntry<'_> {
    fn drop(&mut self) {
        self.shared.contexts()[self.worker] = None;
    }
}

enum Cmd {
    /// Houdini: check these units (owned by the worker) under the assignment.
    Round(Arc<Assignment>, Vec<usize>),
    /// Asynchronous Houdini: the newest assignment and its version; check the worker's unit
    /// under it until a check refutes nothing.
    Async(usize, Arc<Assignment>),
    /// Asynchronous Houdini is over.
    Stop,
}

enum Msg {
    /// Program-level encoding failed (sent once per worker).
    Invalid(Vec<Diagnostic>),
    /// Unit taken by a worker and prepared: Err for input errors.
    Built {
        worker: usize,
        unit: usize,
        mentions: Result<HashSet<Name>, Vec<Diagnostic>>,
    },
    /// No more units to take; the notes of the program encoding.
    Taken {
        notes: Vec<Diagnostic>,
    },
    Round {
        unit: usize,
        round: ImplRound,
        checks: usize,
        time: Duration,
    },
    /// Asynchronous Houdini: one check of a unit, under assignment `used`, derived from the
    /// coordinator's assignment of that version.
    Async {
        unit: usize,
        round: ImplRound,
        checks: usize,
        version: usize,
        used: Assignment,
    },
    Final {
        imp: usize,
        outcome: Outcome,
        time: Duration,
    },
    /// The worker stopped because of a panic.
    Crashed {
        worker: usize,
        message: String,
    },
}

/// One implementation's solver and what reporting needs.
struct ImplState {
    solver: VcSolver,
    passive: Passive,
    build_time: Duration,
}

fn global_vars(program: &Program) -> Vec<TypedIdent> {
    program
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var(v) => Some(v.vars.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn z3_config() -> z3::Config {
    let mut cfg = z3::Config::new();
    cfg.set_model_generation(true);
    cfg
}

fn timeout_ms(opts: &VerifyOptions) -> Option<u64> {
    opts.timeout_secs.map(|s| s.saturating_mul(1000))
}

/// Passifies and encodes one implementation and asserts its VC in a new solver.
fn build(
    enc: &mut Encoder,
    imp: &BlockImpl,
    globals: &[TypedIdent],
    candidates: &HashSet<Name>,
    opts: &VerifyOptions,
    racer: u32,
) -> Result<ImplState, Vec<Diagnostic>> {
    let start = Instant::now();
    let passive = passify(imp, globals)?;
    let env = wp::impl_env(enc, &passive.imp)?;
    let vc = wp::generate(enc, &passive.imp, &env, candidates)?;
    let solver = VcSolver::new(&enc.background, vc, timeout_ms(opts), racer);
    if houdini::trace_enabled() {
        eprintln!(
            "built {} in {:.3}s ({} asserts)",
            imp.name.name,
            start.elapsed().as_secs_f64(),
            solver.vc.asserts.len()
        );
    }
    Ok(ImplState { solver, passive, build_time: start.elapsed() })
}

/// Diagnostics for failures, in source order; `stopped` notes why the search for more ended.
fn diagnostics(state: &ImplState, failures: &[Failure], stopped: Option<&str>) -> Vec<Diagnostic> {
    let mut diags: Vec<Diagnostic> =
        failures.iter().map(|f| failure_diagnostic(&state.solver.vc, f, &state.passive.synthetic)).collect();
    // In source order, whatever order the solver found them in.
    diags.sort_by_key(|d| (d.primary.span.start, d.kind));
    if let (Some(r), Some(last)) = (stopped, diags.last_mut()) {
        last.notes.push(format!("the search for further errors stopped: {r}"));
    }
    diags
}

/// The verification of one implementation without Houdini.
fn final_check(state: &ImplState, opts: &VerifyOptions) -> (Outcome, Duration) {
    let start = Instant::now();
    let (failures, stopped) = state.solver.enumerate(&[], opts.error_limit);
    if houdini::trace_enabled() {
        eprintln!(
            "final check: {:.3}s, {} failures, stopped {stopped:?}",
            start.elapsed().as_secs_f64(),
            failures.len()
        );
    }
    let outcome = if failures.is_empty() {
        match stopped {
            Some(r) => Outcome::Inconclusive(r),
            None => Outcome::Verified,
        }
    } else {
        Outcome::Errors(diagnostics(state, &failures, stopped.as_deref()))
    };
    (outcome, state.build_time + start.elapsed())
}

/// One Houdini round of an implementation under the assignment.
fn houdini_round(shared: &Shared, state: &ImplState, cands: &[(Name, Bool)], a: &Assignment) -> (ImplRound, usize) {
    let c = houdini::check(&state.solver, cands, a, shared.opts.error_limit, None);
    let errors = diagnostics(state, &c.failures, c.inconclusive.as_deref());
    (ImplRound { refuted: c.refuted, errors, inconclusive: c.inconclusive }, c.checks)
}

fn run_worker(w: usize, shared: &Shared, commands: Mutex<Receiver<Cmd>>, out: Sender<Msg>) {
    let out_panic = out.clone();
    let result = catch_unwind(AssertUnwindSafe(|| {
        z3::with_z3_config(&z3_config(), || worker_body(w, shared, &commands, &Mutex::new(out)))
    }));
    if let Err(p) = result {
        let message = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into());
        let _ = out_panic.send(Msg::Crashed { worker: w, message });
    }
}

/// The units worker `w` takes: shares of one implementation go to different workers (a fixed
/// distribution); without shares, implementations go to whichever worker is free.
fn next_unit(w: usize, shared: &Shared, taken: &mut usize) -> Option<usize> {
    let units = shared.impls.len() * shared.share;
    let u = if shared.share > 1 {
        let u = w + *taken * shared.workers;
        *taken += 1;
        u
    } else {
        shared.next.fetch_add(1, Ordering::SeqCst)
    };
    (u < units).then_some(u)
}

fn worker_body(w: usize, shared: &Shared, commands: &Mutex<Receiver<Cmd>>, out: &Mutex<Sender<Msg>>) {
    let send = |m: Msg| {
        let _ = out.lock().expect("sender").send(m);
    };
    let opts = shared.opts;
    let _published = ContextEntry::publish(shared, w);
    let mut taken = 0;
    let mut enc = match Encoder::new(shared.program) {
        Ok(e) => e,
        Err(errors) => {
            send(Msg::Invalid(errors));
            // Still account for the units, so the coordinator is not left waiting.
            while let Some(unit) = next_unit(w, shared, &mut taken) {
                send(Msg::Built { worker: w, unit, mentions: Err(Vec::new()) });
            }
            send(Msg::Taken { notes: Vec::new() });
            return;
        }
    };
    let candidate_set: HashSet<Name> = shared.candidates.iter().cloned().collect();
    let cand_lits: Vec<(Name, Bool)> = shared
        .candidates
        .iter()
        .filter_map(|c| enc.constant(c).and_then(|d| d.as_bool()).map(|b| (c.clone(), b)))
        .collect();
    let mut owned: Vec<(usize, ImplState)> = Vec::new();
    while let Some(unit) = next_unit(w, shared, &mut taken) {
        let i = unit / shared.share;
        let racer = shared.racer(unit);
        match build(&mut enc, &shared.impls[i], shared.globals, &candidate_set, opts, racer) {
            Ok(state) => {
                let mentions = state.solver.vc.mentioned_candidates.clone();
                send(Msg::Built { worker: w, unit, mentions: Ok(mentions) });
                if opts.houdini {
                    owned.push((unit, state));
                } else {
                    let (outcome, time) = final_check(&state, opts);
                    send(Msg::Final { imp: i, outcome, time });
                }
            }
            // Every share finds the same input errors: one reports them.
            Err(d) => send(Msg::Built {
                worker: w,
                unit,
                mentions: Err(if unit % shared.share == 0 { d } else { Vec::new() }),
            }),
        }
    }
    send(Msg::Taken { notes: std::mem::take(&mut enc.notes) });
    if !opts.houdini {
        return;
    }
    loop {
        let command = commands.lock().expect("receiver").recv();
        match command {
            Ok(Cmd::Round(assignment, units)) => {
                for u in units {
                    if let Some((_, state)) = owned.iter().find(|(j, _)| *j == u) {
                        let start = Instant::now();
                        let (round, checks) = houdini_round(shared, state, &cand_lits, &assignment);
                        send(Msg::Round { unit: u, round, checks, time: state.build_time + start.elapsed() });
                    }
                }
            }
            Ok(Cmd::Async(version, assignment)) => {
                // A worker owns one unit in this mode (as many units as workers).
                if let Some((u, state)) = owned.first() {
                    async_unit(
                        shared,
                        *u,
                        state,
                        &cand_lits,
                        (version, assignment),
                        &commands.lock().expect("receiver"),
                        &send,
                    );
                }
                return;
            }
            Ok(Cmd::Stop) | Err(_) => return,
        }
    }
}

/// The assertions unit `unit` checks: with `split_vc`, every `share`-th one (so that the
/// candidates of a loop head, consecutive assertions, are dealt out evenly); in a race, all.
fn unit_asserts(shared: &Shared, unit: usize, state: &ImplState) -> Option<Vec<usize>> {
    (shared.share > 1 && !shared.race).then(|| {
        let s = unit % shared.share;
        (0..state.solver.vc.asserts.len()).filter(|k| k % shared.share == s).collect()
    })
}

/// One unit of asynchronous Houdini (the coordinator's side is [`async_fixpoint`]): the worker
/// checks its assertions (with `split_vc`, its share; the others are assumed) a Houdini round
/// at a time, under the newest assignment it knows (the coordinator's, less its own
/// refutations not yet echoed back), sends each round's result at once, and waits for a new
/// assignment only when a round refuted nothing. Refutation is monotone, so a refutation found
/// under an older (larger) assignment is still one under the newer: the units never wait for
/// each other. A real failure ends Houdini (Boogie's abort), with the failures of the whole VC
/// under that assignment, as a one-thread round reports them.
fn async_unit(
    shared: &Shared,
    unit: usize,
    state: &ImplState,
    cands: &[(Name, Bool)],
    first: (usize, Arc<Assignment>),
    commands: &Receiver<Cmd>,
    send: &dyn Fn(Msg),
) {
    /// Counts the worker in [`Shared::active`] while it is in the loop (also when it unwinds).
    struct Active<'a>(&'a AtomicUsize);
    impl Drop for Active<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }
    shared.active.fetch_add(1, Ordering::SeqCst);
    let _active = Active(&shared.active);
    let only = unit_asserts(shared, unit, state);
    // Whole rounds, as on one thread, or one failure at a time (`Racer::each_failure`).
    let each = shared.race && crate::solver::racer(shared.racer(unit) as usize).each_failure;
    let limit = if each { 1 } else { shared.opts.error_limit };
    // The check itself enumerates the whole VC's failures up to the error limit.
    let enumerates = only.is_none() && limit == shared.opts.error_limit;
    let (mut version, mut base) = first;
    let mut mine: Vec<Name> = Vec::new();
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let mut a = (*base).clone();
        for c in &mine {
            a.insert(c.clone(), false);
        }
        let c = houdini::check(&state.solver, cands, &a, limit, only.as_deref());
        let (round, checks) = if c.failures.is_empty() || enumerates {
            mine.extend(c.refuted.iter().cloned());
            let errors = diagnostics(state, &c.failures, c.inconclusive.as_deref());
            (ImplRound { refuted: c.refuted, errors, inconclusive: c.inconclusive }, c.checks)
        } else {
            // A real failure in a share, or found by a one-failure check: the failures of the
            // whole VC under that assignment, as one thread would report them.
            let all = houdini::check(&state.solver, cands, &a, shared.opts.error_limit, None);
            let failures = if all.failures.is_empty() { &c.failures } else { &all.failures };
            let errors = diagnostics(state, failures, all.inconclusive.as_deref());
            (ImplRound { refuted: Vec::new(), errors, inconclusive: None }, c.checks + all.checks)
        };
        let waits = !goes_on(&round);
        send(Msg::Async { unit, round, checks, version, used: a });
        if waits {
            match commands.recv() {
                Ok(Cmd::Async(v, b)) => (version, base) = (v, b),
                _ => return,
            }
        }
        loop {
            match commands.try_recv() {
                Ok(Cmd::Async(v, b)) => (version, base) = (v, b),
                Err(TryRecvError::Empty) => break,
                Ok(_) | Err(TryRecvError::Disconnected) => return,
            }
        }
    }
}

const STOPPED_ELSEWHERE: &str =
    "Houdini stopped at an error elsewhere before this implementation's candidates were settled";

/// The outcome of an implementation from its last Houdini round.
fn houdini_outcome(last: Option<ImplRound>, crash_message: &str) -> Outcome {
    match last {
        None => Outcome::Inconclusive(format!("internal error: the verifier stopped ({crash_message})")),
        Some(r) if !r.errors.is_empty() => Outcome::Errors(r.errors),
        Some(ImplRound { inconclusive: Some(reason), .. }) => Outcome::Inconclusive(reason),
        Some(r) if !r.refuted.is_empty() => Outcome::Inconclusive(STOPPED_ELSEWHERE.into()),
        Some(_) => Outcome::Verified,
    }
}

/// Runs in the calling thread: gathers builds, drives Houdini rounds, gathers results.
fn coordinate(shared: &Shared, workers: usize, to_workers: &[Sender<Cmd>], inbox: &Receiver<Msg>) -> ProgramResult {
    let n = shared.impls.len();
    let share = shared.share;
    // Per unit: its worker.
    let mut owner: Vec<Option<usize>> = vec![None; n * share];
    let mut mentions: Vec<HashSet<Name>> = vec![HashSet::default(); n];
    let mut outcomes: Vec<Option<(Outcome, Duration)>> = vec![None; n];
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut invalid: Option<Vec<Diagnostic>> = None;
    let mut notes: Option<Vec<Diagnostic>> = None;
    let mut crashed: Vec<usize> = Vec::new();
    let mut taken = 0;
    let mut crash_message = String::new();
    // Phase 1: every unit is taken and built (and, without Houdini, verified). A worker sends
    // its final results (without Houdini) before `Taken`, so once every worker has sent `Taken`
    // (or crashed) phase 1 is complete.
    while taken + crashed.len() < workers {
        let Ok(msg) = inbox.recv() else { break };
        match msg {
            Msg::Invalid(e) => {
                if invalid.is_none() {
                    invalid = Some(e);
                }
            }
            Msg::Built { worker, unit, mentions: m } => match m {
                Ok(m) => {
                    owner[unit] = Some(worker);
                    mentions[unit / share] = m;
                }
                Err(d) => errors.extend(d),
            },
            Msg::Taken { notes: ns } => {
                taken += 1;
                if notes.is_none() {
                    notes = Some(ns);
                }
            }
            Msg::Final { imp, outcome, time } => outcomes[imp] = Some((outcome, time)),
            Msg::Crashed { worker, message } => {
                crashed.push(worker);
                crash_message = message;
            }
            Msg::Round { .. } | Msg::Async { .. } => {}
        }
    }
    let mut result = ProgramResult { notes: notes.unwrap_or_default(), ..Default::default() };
    if let Some(e) = invalid {
        result.errors = e;
        return result;
    }
    if !errors.is_empty() {
        result.errors = errors;
        return result;
    }
    if shared.opts.houdini {
        // Several units per implementation (`split_vc`, `portfolio`): asynchronous; otherwise
        // in rounds, the implementations of a round in parallel.
        let driver = Driver {
            shared,
            owner: &owner,
            mentions: &mentions,
            to_workers,
            inbox,
            crashed: &mut crashed,
            crash_message: &mut crash_message,
        };
        let (stats, last, times) = if share > 1 {
            let start = Instant::now();
            let (stats, last) = async_fixpoint(driver);
            (stats, last, vec![start.elapsed(); n])
        } else {
            houdini_rounds(driver)
        };
        for (i, l) in last.into_iter().enumerate() {
            outcomes[i] = Some((houdini_outcome(l, &crash_message), times[i]));
        }
        if shared.opts.print_assignment {
            result.assignment_text = Some(stats.format_assignment());
        }
        result.houdini = Some(stats);
    }
    for (i, imp) in shared.impls.iter().enumerate() {
        let (outcome, time) = outcomes[i].take().unwrap_or_else(|| {
            (Outcome::Inconclusive(format!("internal error: the verifier stopped ({crash_message})")), Duration::ZERO)
        });
        result.impls.push(ImplResult { name: imp.name.name.to_string(), span: imp.name.span, outcome, time });
    }
    result
}

/// What the two Houdini drivers ([`houdini_rounds`], [`async_fixpoint`]) work with: the
/// workers' channels, which worker owns which unit, and the workers lost so far.
struct Driver<'a, 'b> {
    shared: &'a Shared<'b>,
    /// Per unit: its worker.
    owner: &'a [Option<usize>],
    /// Per implementation: the candidates it mentions.
    mentions: &'a [HashSet<Name>],
    to_workers: &'a [Sender<Cmd>],
    inbox: &'a Receiver<Msg>,
    crashed: &'a mut Vec<usize>,
    crash_message: &'a mut String,
}

/// Houdini in rounds ([`houdini::fixpoint`]), one unit per implementation: each round's
/// implementations are sent to the workers that own them and checked in parallel. Returns the
/// statistics, each implementation's last round and its time.
fn houdini_rounds(d: Driver) -> (HoudiniStats, Vec<Option<ImplRound>>, Vec<Duration>) {
    let Driver { shared, owner, mentions, to_workers, inbox, crashed, crash_message } = d;
    let n = shared.impls.len();
    let mut times: Vec<Duration> = vec![Duration::ZERO; n];
    let (stats, last) = houdini::fixpoint(shared.candidates, mentions, |assignment, worklist| {
        let a = Arc::new(assignment.clone());
        let mut expected = 0;
        for (w, tx) in to_workers.iter().enumerate() {
            let units: Vec<usize> = worklist.iter().copied().filter(|&i| owner[i] == Some(w)).collect();
            if !units.is_empty() && !crashed.contains(&w) {
                expected += units.len();
                let _ = tx.send(Cmd::Round(a.clone(), units));
            }
        }
        let mut rounds: Vec<Option<(ImplRound, usize)>> = vec![None; n];
        let mut got = 0;
        while got < expected {
            let Ok(msg) = inbox.recv() else { break };
            match msg {
                Msg::Round { unit, round, checks, time } => {
                    got += 1;
                    rounds[unit] = Some((round, checks));
                    times[unit] = times[unit].max(time);
                }
                Msg::Crashed { worker, message } => {
                    crashed.push(worker);
                    *crash_message = message;
                    // Its pending units will not answer; its implementations stay unsettled.
                    let lost = worklist.iter().filter(|&&i| owner[i] == Some(worker)).count();
                    expected -= lost.min(expected);
                }
                _ => {}
            }
        }
        worklist
            .iter()
            .map(|&i| match rounds[i].take() {
                Some((round, checks)) => (i, round, checks),
                // Lost with a crashed worker: never "verified".
                None => {
                    let reason = format!("internal error: the verifier stopped ({crash_message})");
                    (i, ImplRound { inconclusive: Some(reason), ..Default::default() }, 0)
                }
            })
            .collect()
    });
    (stats, last, times)
}

/// Whether a unit goes on checking after this round without waiting for a new assignment: it
/// refuted candidates and found no real failure.
fn goes_on(round: &ImplRound) -> bool {
    !round.refuted.is_empty() && round.errors.is_empty()
}

/// Asynchronous Houdini's coordinator ([`async_unit`] is the workers' side), for an
/// implementation checked by several units: with `split_vc` each unit owns a share of the
/// assertions, in a race (`portfolio`) each checks them all as its racer does
/// ([`crate::solver::RACERS`]: its own Z3 configuration, whole rounds or one failure at a
/// time). Each
/// refutation is applied as soon as a unit reports it, and the new assignment goes to every
/// unit of an implementation not yet settled: a unit busy with an older assignment picks it up
/// at its next check, an idle one starts again.
///
/// The greatest fixpoint is reached when every implementation holds under the current
/// assignment — with `split_vc`, every share reported its assertions valid under it; in a
/// race, one unit reported the whole VC valid (the others are then interrupted) — or was
/// settled otherwise: by a real failure, a timeout (of every unit, in a race) or a lost worker.
/// A real failure stops the search (Boogie's abort): the assignment is kept from then on, and
/// the implementations still open are checked under it without refuting (Boogie's flush), as
/// in [`houdini::fixpoint`]. Returns the statistics and each implementation's last round, as
/// [`houdini::fixpoint`] does.
fn async_fixpoint(d: Driver) -> (HoudiniStats, Vec<Option<ImplRound>>) {
    let Driver { shared, owner, mentions, to_workers, inbox, crashed, crash_message } = d;
    let (n, share) = (shared.impls.len(), shared.share);
    let units = n * share;
    let start = Instant::now();
    let mut stats = HoudiniStats { candidates: shared.candidates.to_vec(), rounds: 1, ..Default::default() };
    let mut a: Assignment = shared.candidates.iter().map(|c| (c.clone(), true)).collect();
    // The assignment's version: how many times it changed.
    let mut version = 0;
    let mut u = AsyncUnits {
        valid: vec![false; units],
        sent: vec![0; units],
        busy: vec![false; units],
        given_up: vec![false; units],
        interrupted: vec![false; units],
    };
    // Per implementation: the round that settled it (a failure, a timeout, a lost worker).
    let mut settled: Vec<Option<ImplRound>> = vec![None; n];
    let send = |unit: usize, version: usize, a: &Arc<Assignment>, u: &mut AsyncUnits, crashed: &[usize]| {
        if let Some(w) = owner[unit].filter(|w| !crashed.contains(w)) {
            if to_workers[w].send(Cmd::Async(version, a.clone())).is_ok() {
                u.sent[unit] = version;
                u.busy[unit] = true;
            }
        }
    };
    let current = Arc::new(a.clone());
    for unit in 0..units {
        send(unit, version, &current, &mut u, crashed);
    }
    let holds = |i: usize, u: &AsyncUnits| {
        let mut of_i = (i * share..(i + 1) * share).map(|k| u.valid[k]);
        if shared.race {
            of_i.any(|v| v)
        } else {
            of_i.all(|v| v)
        }
    };
    let open = |settled: &[Option<ImplRound>], u: &AsyncUnits| (0..n).any(|i| settled[i].is_none() && !holds(i, u));
    while open(&settled, &u) {
        let Ok(msg) = inbox.recv() else { break };
        match msg {
            Msg::Async { unit, round, checks, version: used_version, used } => {
                stats.checks += checks;
                let i = unit / share;
                u.busy[unit] = goes_on(&round) || used_version < u.sent[unit];
                let interrupted = std::mem::take(&mut u.interrupted[unit]);
                if settled[i].is_some() {
                    continue;
                }
                if !round.errors.is_empty() {
                    settled[i] = Some(round);
                    stats.stopped = true;
                    continue;
                }
                if round.inconclusive.is_some() && round.refuted.is_empty() {
                    // Interrupted by us (its implementation held): idle, not given up.
                    if interrupted && shared.race {
                        continue;
                    }
                    // A timeout: not checked again (Boogie's black list). In a race, the
                    // implementation is given up when every unit has.
                    u.given_up[unit] = true;
                    if !shared.race || (i * share..(i + 1) * share).all(|k| u.given_up[k]) {
                        settled[i] = Some(round);
                    }
                    continue;
                }
                if stats.stopped && !round.refuted.is_empty() {
                    // Still refuting after the stop, when the assignment is kept: unsettled.
                    settled[i] = Some(round);
                    continue;
                }
                let valid = round.valid();
                let newly: Vec<Name> = round.refuted.into_iter().filter(|c| a.get(c) == Some(&true)).collect();
                if !newly.is_empty() {
                    for c in &newly {
                        a.insert(c.clone(), false);
                    }
                    for (k, v) in u.valid.iter_mut().enumerate() {
                        if newly.iter().any(|c| mentions[k / share].contains(c)) {
                            *v = false;
                        }
                    }
                    version += 1;
                    stats.rounds += 1;
                    let current = Arc::new(a.clone());
                    let to: Vec<usize> =
                        (0..units).filter(|k| settled[k / share].is_none() && !u.given_up[*k]).collect();
                    for k in to {
                        send(k, version, &current, &mut u, crashed);
                    }
                } else if valid && used == a {
                    u.valid[unit] = true;
                    if shared.race {
                        // The others of the race are checking what is settled now: stop them.
                        for k in (i * share..(i + 1) * share).filter(|&k| k != unit && u.busy[k]) {
                            if let Some(w) = owner[k] {
                                u.interrupted[k] = true;
                                shared.interrupt(w);
                            }
                        }
                    }
                }
            }
            Msg::Crashed { worker, message } => {
                crashed.push(worker);
                *crash_message = message;
                for k in (0..units).filter(|&k| owner[k] == Some(worker)) {
                    let reason = format!("internal error: the verifier stopped ({crash_message})");
                    settled[k / share] = Some(ImplRound { inconclusive: Some(reason), ..Default::default() });
                }
            }
            _ => {}
        }
        // An implementation still open whose units all wait (an interrupted unit, say) would
        // never be checked again: give them the current assignment.
        let idle: Vec<usize> = (0..n)
            .filter(|&i| settled[i].is_none() && !holds(i, &u))
            .filter(|&i| (i * share..(i + 1) * share).all(|k| !u.busy[k]))
            .flat_map(|i| (i * share..(i + 1) * share).filter(|&k| !u.given_up[k]))
            .collect();
        if !idle.is_empty() {
            let current = Arc::new(a.clone());
            for k in idle {
                send(k, version, &current, &mut u, crashed);
            }
        }
    }
    stop_units(shared, to_workers);
    let last = (0..n)
        .map(|i| {
            settled[i].take().or_else(|| {
                let reason = (!holds(i, &u)).then(|| STOPPED_ELSEWHERE.to_string());
                Some(ImplRound { inconclusive: reason, ..Default::default() })
            })
        })
        .collect();
    stats.kept = a.values().filter(|v| **v).count();
    stats.time = start.elapsed();
    stats.assignment = a;
    (stats, last)
}

/// What [`async_fixpoint`] knows of each unit.
struct AsyncUnits {
    /// Its last check held, under the current assignment (or one that differs only in
    /// candidates its implementation does not mention).
    valid: Vec<bool>,
    /// The version of the last assignment sent to it.
    sent: Vec<usize>,
    /// It is checking, or will check once it reads its commands.
    busy: Vec<bool>,
    /// It timed out: not checked again.
    given_up: Vec<bool>,
    /// We interrupted it: its next inconclusive result is not a timeout.
    interrupted: Vec<bool>,
}

/// Ends asynchronous Houdini: every worker is told to stop and, until it has left
/// [`async_unit`], its solver call is interrupted again and again (an interrupt sent between
/// two calls is lost).
fn stop_units(shared: &Shared, to_workers: &[Sender<Cmd>]) {
    shared.stop.store(true, Ordering::SeqCst);
    for tx in to_workers {
        let _ = tx.send(Cmd::Stop);
    }
    // Until every unit has left its loop (not until its solvers are dropped, which takes a
    // while and needs no interrupt).
    while shared.active.load(Ordering::SeqCst) > 0 {
        for w in 0..to_workers.len() {
            shared.interrupt(w);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The stages [`emit_stage`] prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitStage {
    /// The passive program (`.kbpl`): only `assume` and `assert`, single assignment.
    Passified,
    /// The verification conditions as SMT-LIB, one benchmark per implementation.
    Vc,
}

impl EmitStage {
    pub fn parse(s: &str) -> Option<EmitStage> {
        match s {
            "passified" | "passive" => Some(EmitStage::Passified),
            "vc" | "smt" | "smt2" => Some(EmitStage::Vc),
            _ => None,
        }
    }
}

/// Prints `program` after a stage of VC generation.
pub fn emit_stage(program: &Program, stage: EmitStage) -> Result<String, Vec<Diagnostic>> {
    let inputs = desugar::prepare(program)?;
    let globals = global_vars(program);
    let mut passives = Vec::new();
    let mut errors = Vec::new();
    for v in &inputs {
        match passify(&v.imp, &globals) {
            Ok(p) => passives.push(p),
            Err(mut d) => errors.append(&mut d),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    match stage {
        EmitStage::Passified => {
            let mut decls: Vec<Decl> = program
                .decls
                .iter()
                .filter(|d| !matches!(d.kind, DeclKind::Implementation(_)))
                .map(|d| match &d.kind {
                    DeclKind::Procedure(p) if p.body.is_some() => {
                        Decl { kind: DeclKind::Procedure(ProcedureDecl { body: None, ..p.clone() }), span: d.span }
                    }
                    _ => d.clone(),
                })
                .collect();
            decls.extend(passives.iter().map(|p| p.imp.to_decl()));
            Ok(ivl::printer::print_program(&Program { decls }))
        }
        EmitStage::Vc => {
            configure_z3();
            z3::with_z3_config(&z3_config(), || {
                let mut enc = Encoder::new(program)?;
                let candidates: HashSet<Name> = Encoder::existentials(program).into_iter().collect();
                let mut out = String::new();
                for p in &passives {
                    let env = wp::impl_env(&mut enc, &p.imp)?;
                    let vc = wp::generate(&mut enc, &p.imp, &env, &candidates)?;
                    let s = VcSolver::new(&enc.background, vc, None, 0);
                    out.push_str(&format!("; verification condition of implementation {}\n", p.imp.name.name));
                    out.push_str(&s.solver.to_smt2());
                    out.push('\n');
                }
                Ok(out)
            })
        }
    }
}
