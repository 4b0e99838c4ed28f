//! `kivl verify --replay` (issue 7): every error the two-thread proof reports is run concretely
//! with the interleaving interpreter ([`crate::interleaving`]) and marked *confirmed* (it
//! happened) or *possible* (not reproduced: a false alarm of the abstraction, or a missing
//! invariant).
//!
//! Why: the two-thread reduction over-approximates (seed 001 §4.1.3: shared memory is
//! abstracted, loops are cut at invariants), so an error may be spurious; the interleaving
//! semantics (seed 000 §3) is exact but only tries some schedules. A counterexample
//! ([`crate::two_thread::counterexample`]) fixes the two threads, the parameters, the constants
//! and, when they are symbolic, the sizes. The replay first runs only those two threads under
//! `schedules` seeded random schedules and round-robin (every other thread is absent, so its
//! writes cannot mask the error), then, if the error did not show, every thread of their
//! group(s). A run *confirms* the error when it shows an error of the same kind at the same
//! source lines (for a race: the same two lines). Nothing is claimed beyond what a run showed.

use crate::interleaving::{InputValue, Inputs, Interpreter, RunConfig, RunOutcome, RuntimeError, Schedule, ThreadId};
use crate::two_thread::counterexample::{counterexample, Counterexample};
use ivl::ast::*;
use ivl::diag::{Diagnostic, ErrorKind, SourceFile};

/// How hard a replay tries.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    /// `--local-size` / `--num-groups` of the verification (`None`: from the model).
    pub local_size: Option<Vec<u64>>,
    pub num_groups: Option<Vec<u64>>,
    pub benign_tolerance: bool,
    /// Seeded random schedules per set of threads (round-robin is tried as well).
    pub schedules: u64,
    /// Instructions per run.
    pub max_steps: u64,
    /// The whole-group fallback is skipped for groups larger than this.
    pub max_group_threads: u64,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            local_size: None,
            num_groups: None,
            benign_tolerance: true,
            schedules: 100,
            max_steps: 1_000_000,
            max_group_threads: 1024,
        }
    }
}

/// Which threads ran in the run that confirmed an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// Only the counterexample's threads.
    Counterexample,
    /// Every thread of the counterexample's group(s).
    Groups,
    /// Every thread of the grid (errors without a counterexample).
    Grid,
}

impl Threads {
    pub fn as_str(self) -> &'static str {
        match self {
            Threads::Counterexample => "counterexample",
            Threads::Groups => "group",
            Threads::Grid => "grid",
        }
    }
}

/// The run that made an error happen.
#[derive(Clone, Debug)]
pub struct Evidence {
    pub seed: u64,
    pub schedule: Schedule,
    pub threads: Threads,
    pub local_size: Vec<u64>,
    pub num_groups: Vec<u64>,
    /// The error as the interpreter reports it (threads, values, notes).
    pub error: RuntimeError,
}

/// The outcome of replaying one error.
#[derive(Clone, Debug)]
pub enum Replay {
    Confirmed(Box<Evidence>),
    /// Not reproduced; why (what was tried).
    Possible(String),
}

impl Replay {
    pub fn as_str(&self) -> &'static str {
        match self {
            Replay::Confirmed(_) => "confirmed",
            Replay::Possible(_) => "possible",
        }
    }
}

/// Whether a diagnostic is a verification error that a run can show.
pub fn is_replayable(d: &Diagnostic) -> bool {
    !d.kind.is_input_error() && d.kind != ErrorKind::Timeout
}

/// The lines of a diagnostic's locations.
fn lines(src: &SourceFile, d: &Diagnostic) -> Vec<usize> {
    std::iter::once(&d.primary).chain(&d.related).map(|l| src.line_col(l.span.start).0).collect()
}

/// Whether the run's error `e` is the reported error `d`: same kind and the same lines (both
/// lines of a race; for other kinds the reported line is among the run's).
fn same_error(src: &SourceFile, d: &Diagnostic, e: &RuntimeError) -> bool {
    let assertion_like =
        |k: ErrorKind| matches!(k, ErrorKind::Assertion | ErrorKind::Precondition | ErrorKind::Postcondition);
    let kind_ok = e.kind == d.kind || (assertion_like(e.kind) && assertion_like(d.kind));
    if !kind_ok {
        return false;
    }
    let mine = lines(src, d);
    let theirs = lines(src, &e.diagnostic);
    match d.kind {
        ErrorKind::Race => {
            let mut a = mine.clone();
            let mut b = theirs.clone();
            a.truncate(2);
            b.truncate(2);
            if a.len() == 1 {
                a.push(a[0]);
            }
            if b.len() == 1 {
                b.push(b[0]);
            }
            a.sort();
            b.sort();
            a == b
        }
        // Threads that disagree on barriers may be caught at either barrier.
        ErrorKind::Divergence => true,
        _ => theirs.contains(&mine[0]) || mine.iter().any(|l| theirs.contains(l)),
    }
}

fn input_value(s: &str) -> Option<InputValue> {
    match s {
        "true" => Some(InputValue::Bool(true)),
        "false" => Some(InputValue::Bool(false)),
        _ => s.parse::<num_bigint::BigInt>().ok().map(InputValue::Int),
    }
}

/// The kernel's parameter names.
fn kernel_params(p: &Program) -> Vec<Name> {
    p.procedures()
        .find(|pr| has_attr(&pr.attrs, "kernel"))
        .map(|pr| pr.ins.iter().map(|t| t.name.name.clone()).collect())
        .unwrap_or_default()
}

/// The kernel parameters among `values` (label, value), as interpreter inputs.
fn param_inputs(program: &Program, values: &[(String, String)]) -> Vec<(String, InputValue)> {
    let params = kernel_params(program);
    values
        .iter()
        .filter(|(n, _)| params.iter().any(|p| p == n.as_str()))
        .filter_map(|(n, v)| Some((n.clone(), input_value(v)?)))
        .collect()
}

/// The inputs a counterexample fixes: parameters and constants.
fn inputs_of(cx: &Counterexample, program: &Program) -> Inputs {
    let mut inputs = Inputs { params: param_inputs(program, &cx.params), ..Inputs::default() };
    for (n, v) in &cx.consts {
        if let Some(v) = input_value(v) {
            inputs.consts.push((n.clone(), v));
        }
    }
    inputs
}

fn dims(v: &[u64]) -> [u64; 3] {
    [v.first().copied().unwrap_or(1), v.get(1).copied().unwrap_or(1), v.get(2).copied().unwrap_or(1)]
}

struct Attempt<'a> {
    interp: &'a Interpreter,
    src: &'a SourceFile,
    d: &'a Diagnostic,
    opts: &'a ReplayOptions,
    runs: u64,
}

impl Attempt<'_> {
    /// Random schedules then round-robin; the first run that shows `d`.
    fn schedules(&mut self, base: &RunConfig, threads: Threads) -> Option<Evidence> {
        let plans =
            (0..self.opts.schedules).map(|s| (s, Schedule::Random)).chain(std::iter::once((0, Schedule::RoundRobin)));
        for (seed, schedule) in plans {
            let cfg = RunConfig { seed, schedule, ..base.clone() };
            self.runs += 1;
            match self.interp.run(&cfg) {
                RunOutcome::Error(e) => {
                    if let Some(found) = e.all().find(|e| same_error(self.src, self.d, e)) {
                        return Some(Evidence {
                            seed,
                            schedule,
                            threads,
                            local_size: base.local_size.clone().unwrap_or_default(),
                            num_groups: base.num_groups.clone().unwrap_or_default(),
                            error: found.clone(),
                        });
                    }
                }
                // The setting cannot run at all: other seeds will not change that.
                RunOutcome::Invalid(_) | RunOutcome::Internal(_) => return None,
                _ => {}
            }
        }
        None
    }
}

/// Replays error `d` of the kernel `program` (checked, with the prelude; `src` is its file).
pub fn replay_error(
    interp: &Interpreter,
    program: &Program,
    src: &SourceFile,
    d: &Diagnostic,
    opts: &ReplayOptions,
) -> Replay {
    let mut a = Attempt { interp, src, d, opts, runs: 0 };
    let cx = counterexample(d);
    let local = opts.local_size.clone().or_else(|| cx.as_ref().and_then(|c| c.local_size).map(|s| s.to_vec()));
    let groups = opts.num_groups.clone().or_else(|| cx.as_ref().and_then(|c| c.num_groups).map(|s| s.to_vec()));
    let base = RunConfig {
        local_size: local.clone(),
        num_groups: groups.clone(),
        benign_tolerance: opts.benign_tolerance,
        max_steps: opts.max_steps,
        inputs: cx.as_ref().map(|c| inputs_of(c, program)).unwrap_or_default(),
        ..RunConfig::default()
    };
    let Some(cx) = cx else {
        // No model values (a contract checked outside the kernel body): the whole grid.
        if let Some(e) = a.schedules(&base, Threads::Grid) {
            return Replay::Confirmed(Box::new(e));
        }
        return Replay::Possible(format!(
            "no counterexample values; {} runs of the whole grid did not show it",
            a.runs
        ));
    };
    let ids: Vec<ThreadId> = cx.threads.iter().filter_map(|t| t.thread_id()).collect();
    if ids.len() == 2 {
        let mut ids = ids.clone();
        ids.dedup();
        let cfg = RunConfig { threads: Some(ids), ..base.clone() };
        if let Some(e) = a.schedules(&cfg, Threads::Counterexample) {
            return Replay::Confirmed(Box::new(e));
        }
    }
    let per_group: u64 = local.as_deref().map(|l| dims(l).iter().product()).unwrap_or(u64::MAX);
    let mut groups_of: Vec<[u32; 3]> = ids.iter().map(|t| t.group).collect();
    groups_of.dedup();
    if !ids.is_empty() && per_group.saturating_mul(groups_of.len() as u64) <= opts.max_group_threads {
        let l = dims(local.as_deref().unwrap_or(&[]));
        let mut all = Vec::new();
        for g in &groups_of {
            for z in 0..l[2] {
                for y in 0..l[1] {
                    for x in 0..l[0] {
                        all.push(ThreadId { local: [x as u32, y as u32, z as u32], group: *g });
                    }
                }
            }
        }
        let cfg = RunConfig { threads: Some(all), ..base.clone() };
        if let Some(e) = a.schedules(&cfg, Threads::Groups) {
            return Replay::Confirmed(Box::new(e));
        }
    }
    Replay::Possible(format!(
        "not reproduced in {} concrete runs ({} random schedules and round-robin, with the counterexample's threads, \
         then with their whole group): it may be a false alarm of the two-thread abstraction or need a stronger invariant",
        a.runs, opts.schedules
    ))
}

/// Replays a termination error (seed 004): the whole grid runs, with the kernel parameters the
/// counterexample state gives, until a run exceeds the step limit. That is what a loop that
/// never ends looks like, but a slow loop looks the same, so it stays `possible` and says so.
fn replay_termination(interp: &Interpreter, program: &Program, d: &Diagnostic, opts: &ReplayOptions) -> Replay {
    let inputs = Inputs { params: param_inputs(program, &d.values), ..Inputs::default() };
    let base = RunConfig {
        local_size: Some(opts.local_size.clone().unwrap_or_else(|| vec![4])),
        num_groups: Some(opts.num_groups.clone().unwrap_or_else(|| vec![1])),
        benign_tolerance: opts.benign_tolerance,
        max_steps: opts.max_steps,
        inputs,
        ..RunConfig::default()
    };
    // The counterexample's state is one of a cut loop, not always reachable: its parameters are
    // tried first, then inputs the interpreter chooses.
    let plans = (0..3).map(|s| (s, Schedule::Random)).chain(std::iter::once((0, Schedule::RoundRobin)));
    let plans: Vec<_> = plans.clone().map(|p| (p, true)).chain(plans.map(|p| (p, false))).collect();
    let mut finished = 0;
    for ((seed, schedule), with_params) in plans {
        let inputs = if with_params { base.inputs.clone() } else { Inputs::default() };
        match interp.run(&RunConfig { seed, schedule, inputs, ..base.clone() }) {
            RunOutcome::Limit(why) => {
                return Replay::Possible(format!(
                    "a concrete run ({} schedule, seed {seed}, local size {:?}, groups {:?}) did not finish: {why}; \
                     consistent with a loop that never ends",
                    schedule.as_str(),
                    base.local_size.as_deref().unwrap_or_default(),
                    base.num_groups.as_deref().unwrap_or_default(),
                ))
            }
            RunOutcome::Completed(_) | RunOutcome::Error(_) | RunOutcome::Infeasible(_) => finished += 1,
            RunOutcome::Invalid(_) | RunOutcome::Internal(_) => break,
        }
    }
    Replay::Possible(format!("{finished} concrete runs finished within {} steps", opts.max_steps))
}

/// Replays every replayable error of `errors` and records the outcome on it: the values
/// `replay` (`confirmed` / `possible`) and, when confirmed, `replay.seed`, `replay.schedule`,
/// `replay.threads`, `replay.message`; and a note for people.
pub fn replay_errors(program: &Program, src: &SourceFile, errors: &mut [Diagnostic], opts: &ReplayOptions) {
    let interp = Interpreter::new(program).ok();
    for d in errors.iter_mut().filter(|d| is_replayable(d)) {
        let r = match &interp {
            Some(i) if i.has_kernel() && d.kind == ErrorKind::Termination => replay_termination(i, program, d, opts),
            Some(i) if i.has_kernel() => replay_error(i, program, src, d, opts),
            Some(_) => Replay::Possible("not a kernel: nothing to run".into()),
            None => Replay::Possible("the interpreter cannot run this program".into()),
        };
        record(d, &r);
    }
}

/// Records a replay outcome on the diagnostic (see [`replay_errors`]).
pub fn record(d: &mut Diagnostic, r: &Replay) {
    d.values.push(("replay".into(), r.as_str().into()));
    match r {
        Replay::Confirmed(e) => {
            let schedule = e.schedule.as_str();
            d.values.push(("replay.seed".into(), e.seed.to_string()));
            d.values.push(("replay.schedule".into(), schedule.into()));
            d.values.push(("replay.threads".into(), e.threads.as_str().into()));
            d.values.push(("replay.message".into(), e.error.diagnostic.message.clone()));
            let who = match e.threads {
                Threads::Counterexample => "only the counterexample's threads",
                Threads::Groups => "every thread of the counterexample's group(s)",
                Threads::Grid => "every thread",
            };
            let mut note = format!(
                "replay: confirmed — a concrete run ({who}, local size {:?}, groups {:?}, {schedule} schedule, seed {}) shows: {}",
                e.local_size, e.num_groups, e.seed, e.error.diagnostic.message
            );
            let labels: Vec<String> = std::iter::once(&e.error.diagnostic.primary)
                .chain(&e.error.diagnostic.related)
                .map(|l| l.message.clone())
                .filter(|m| !m.is_empty())
                .collect();
            if !labels.is_empty() {
                note.push_str(&format!(" [{}]", labels.join("; ")));
            }
            for n in e.error.diagnostic.notes.iter().filter(|n| n.starts_with("inputs:")) {
                note.push_str(&format!("; {n}"));
            }
            d.notes.push(note);
        }
        Replay::Possible(why) => d.notes.push(format!("replay: possible — {why}")),
    }
}

/// The replay fields of an error's JSON object: `"replay"` and, when confirmed, `"replay_run"`.
pub fn replay_json(d: &Diagnostic) -> serde_json::Map<String, serde_json::Value> {
    let get = |l: &str| d.values.iter().find(|(k, _)| k == l).map(|(_, v)| v.clone());
    let mut m = serde_json::Map::new();
    if let Some(r) = get("replay") {
        m.insert("replay".into(), r.into());
        if let (Some(seed), Some(schedule), Some(threads)) =
            (get("replay.seed"), get("replay.schedule"), get("replay.threads"))
        {
            m.insert(
                "replay_run".into(),
                serde_json::json!({
                    "seed": seed.parse::<u64>().unwrap_or(0),
                    "schedule": schedule,
                    "threads": threads,
                    "message": get("replay.message").unwrap_or_default(),
                }),
            );
        }
    }
    m
}

/// Convenience for tests and tools: replays every error of a verification result's
/// implementations.
pub fn replay_all(
    program: &Program,
    src: &SourceFile,
    result: &mut vcgen::engine::ProgramResult,
    opts: &ReplayOptions,
) {
    for r in &mut result.impls {
        if let vcgen::engine::Outcome::Errors(ds) = &mut r.outcome {
            replay_errors(program, src, ds, opts);
        }
    }
}
