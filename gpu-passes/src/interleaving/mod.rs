//! Executable semantics of `.kbpl` kernels: an interleaving interpreter (`kivl run`).
//!
//! Why: a concrete, trustworthy meaning for kernels against which every verification pass can be
//! tested, and a bug finder that shows races, barrier divergence and assertion failures with
//! concrete thread ids and inputs. It implements the interleaving semantics of seed 000 §3
//! (Fig. 4: per-thread private stores, a shared store, `assume`/`assert`, barriers with the
//! barrier variables of rules B1/B2) and the data-race definition 3.1, extended by docs/kbpl.md §7:
//! one copy of `{:group_shared}` memory per work-group, device memory shared by all groups,
//! fences (`barrier {:local}` / `{:global}`), inter-group races, and benign same-value writes
//! (seed 003), which are tolerated unless asked otherwise.
//!
//! Layout: [`compile`] turns a checked program into the slot-resolved instructions of [`code`]
//! (over the run-time types of [`types`]); [`eval`] evaluates expressions; [`machine`] runs
//! threads, calls and barriers; [`race`] detects races; [`value`], [`bitvec`] and [`atomic`] are
//! the values and their operations, [`rng`] the seeded randomness; [`inputs`] reads fixed
//! inputs and [`config`] says what a run is asked.
//!
//! Everything arbitrary in a run — schedule, `havoc`, initial memory, parameters, uninterpreted
//! functions — is a function of the seed, so a run is reproducible from its seed. A run never
//! claims more than it saw: "no error found in K runs", never "verified".

pub mod atomic;
pub mod bitvec;
pub mod code;
pub mod compile;
pub mod config;
pub mod eval;
pub mod inputs;
pub mod machine;
pub mod race;
pub mod rng;
pub mod types;
pub mod value;

use code::Compiled;
use eval::Stop;
use ivl::ast::{Name, Program, Span};
use ivl::diag::{Diagnostic, ErrorKind};

pub use config::{RunConfig, Schedule, ThreadId};
pub use inputs::{InputValue, Inputs};
pub use value::Value;

/// The state at the end of a completed run.
#[derive(Clone, Debug)]
pub struct FinalState {
    /// Every global variable: one value, or one per group for `{:group_shared}` ones.
    pub globals: Vec<(Name, Vec<Value>)>,
    /// The root procedure's parameters (uniform across threads).
    pub params: Vec<(Name, Value)>,
    /// The root procedure's outputs in the first thread.
    pub outs: Vec<(Name, Value)>,
    /// Instructions executed.
    pub steps: u64,
}

impl FinalState {
    pub fn global(&self, name: &str) -> Option<&Value> {
        self.globals.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.first())
    }
    pub fn out(&self, name: &str) -> Option<&Value> {
        self.outs.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// An error a run exhibited.
#[derive(Clone, Debug)]
pub struct RuntimeError {
    pub kind: ErrorKind,
    /// Labelled with both accesses of a race, both barriers of a divergence, the failing clause.
    pub diagnostic: Diagnostic,
    /// The threads involved (first the one that failed or made the second access).
    pub threads: Vec<ThreadId>,
    pub seed: u64,
    /// Errors the same run showed afterwards: a race does not end a run, which may go on to
    /// diverge or fail an assertion.
    pub later: Vec<RuntimeError>,
}

impl RuntimeError {
    /// This error and the ones the run showed after it.
    pub fn all(&self) -> impl Iterator<Item = &RuntimeError> {
        std::iter::once(self).chain(self.later.iter())
    }
}

#[derive(Clone, Debug)]
pub enum RunOutcome {
    Completed(FinalState),
    /// An `assume` was false (or no inputs satisfied the `requires`): the run shows nothing.
    Infeasible(String),
    Error(RuntimeError),
    /// The program cannot be run (unsupported construct, sizes missing, unsatisfiable axioms).
    Invalid(Vec<Diagnostic>),
    /// A step, depth or enumeration limit was hit.
    Limit(String),
    /// A bug in kivl (or an unchecked, ill-typed program).
    Internal(String),
}

impl RunOutcome {
    pub fn error(&self) -> Option<&RuntimeError> {
        match self {
            RunOutcome::Error(e) => Some(e),
            _ => None,
        }
    }
    pub fn error_kind(&self) -> Option<ErrorKind> {
        self.error().map(|e| e.kind)
    }
}

/// A program compiled once, run many times.
pub struct Interpreter {
    prog: Compiled,
}

impl Interpreter {
    pub fn new(program: &Program) -> Result<Interpreter, Vec<Diagnostic>> {
        Ok(Interpreter { prog: compile::compile(program)? })
    }

    pub fn has_kernel(&self) -> bool {
        self.prog.kernel().is_some()
    }

    /// One run of the kernel with `cfg.seed`.
    pub fn run(&self, cfg: &RunConfig) -> RunOutcome {
        self.execute(cfg, machine::Mode::Kernel)
    }

    /// One sequential run of procedure `name` (plain Boogie): a single thread, no races;
    /// parameters from `cfg.inputs` (others arbitrary, subject to the `requires`).
    pub fn run_procedure(&self, name: &str, cfg: &RunConfig) -> RunOutcome {
        match self.prog.proc_named(name) {
            Some(p) if self.prog.procs[p].body.is_some() => {
                self.execute(cfg, machine::Mode::Procedure(p as u32, &cfg.inputs))
            }
            _ => RunOutcome::Invalid(vec![Diagnostic::unsupported(
                format!("there is no procedure `{name}` with a body to run"),
                Span::DUMMY,
            )]),
        }
    }

    fn execute(&self, cfg: &RunConfig, mode: machine::Mode) -> RunOutcome {
        let mut m = match machine::Machine::new(&self.prog, cfg, mode) {
            Ok(m) => m,
            Err(stop) => return self.outcome_of_stop(stop, None, cfg),
        };
        let result = m.run();
        let race = m.race.as_mut().and_then(|l| l.first.take());
        match (result, race) {
            (Ok(()), None) => RunOutcome::Completed(final_state(&m)),
            (Ok(()), Some(r)) => RunOutcome::Error(self.race_error(&r, &m, cfg)),
            (Err(Stop::Fail(f)), Some(r)) => {
                let mut e = self.race_error(&r, &m, cfg);
                e.later.push(self.fail_error(&f, Some(&m), cfg));
                RunOutcome::Error(e)
            }
            (Err(Stop::Limit(why)), Some(r)) => {
                let mut e = self.race_error(&r, &m, cfg);
                e.diagnostic.notes.push(format!("the run was abandoned afterwards: {why}"));
                RunOutcome::Error(e)
            }
            // A race in a run that ends infeasible is no race (Definition 3.1).
            (Err(stop), _) => self.outcome_of_stop(stop, Some(&m), cfg),
        }
    }

    fn seed_note(cfg: &RunConfig) -> String {
        format!(
            "found by `kivl run` with seed {} ({} schedule); `--seed {} --runs 1` replays it",
            cfg.seed,
            match cfg.schedule {
                Schedule::Random => "random",
                Schedule::RoundRobin => "round-robin",
            },
            cfg.seed
        )
    }

    fn race_error(&self, r: &race::RaceReport, m: &machine::Machine, cfg: &RunConfig) -> RuntimeError {
        let tid = |t: u32| m.infos[t as usize].id;
        let var = &self.prog.globals[r.var as usize];
        let mut loc = var.name.to_string();
        if let Some(k) = &r.key {
            loc = format!("{loc}[{k}]");
        }
        let what = |a: &race::RaceAccess| {
            let verb = match (a.atomic, a.write) {
                (true, _) => "atomic update",
                (false, true) => "write",
                (false, false) => "read",
            };
            match (&a.value, a.write) {
                (Some(v), true) => format!("{verb} of {v} by {}", tid(a.tid)),
                _ => format!("{verb} by {}", tid(a.tid)),
            }
        };
        let mut d = Diagnostic::new(
            ErrorKind::Race,
            format!(
                "data race ({}) on `{loc}` between {} and {}",
                r.kind.as_str(),
                tid(r.first.tid),
                tid(r.second.tid)
            ),
            r.second.span,
        )
        .with_label(what(&r.second))
        .with_related(r.first.span, what(&r.first));
        if var.group_shared {
            d = d.with_note(format!(
                "`{}` is group-shared: both threads use group {}'s copy",
                var.name,
                tid(r.second.tid).group[0]
            ));
        }
        d = d.with_note("no barrier separates the two accesses").with_note(Self::seed_note(cfg));
        RuntimeError {
            kind: ErrorKind::Race,
            diagnostic: d,
            threads: vec![tid(r.second.tid), tid(r.first.tid)],
            seed: cfg.seed,
            later: Vec::new(),
        }
    }

    fn fail_error(&self, f: &eval::Failure, m: Option<&machine::Machine>, cfg: &RunConfig) -> RuntimeError {
        let tid = |t: u32| m.map(|m| m.infos[t as usize].id).unwrap_or_default();
        let threads: Vec<ThreadId> = f.threads.iter().map(|&t| tid(t)).collect();
        let message = match (f.kind, f.threads.first()) {
            (ErrorKind::Divergence | ErrorKind::BarrierInvariant, _) | (_, None) => f.message.clone(),
            (_, Some(_)) if f.message.contains("thread") => f.message.clone(),
            (_, Some(&t)) => format!("{} in {}", f.message, tid(t)),
        };
        let mut d = Diagnostic::new(f.kind, message, f.span).with_label(f.label.clone());
        for (s, l) in &f.related {
            d = d.with_related(*s, l.clone());
        }
        if let Some(m) = m {
            if !m.params.is_empty() {
                let root = &self.prog.procs[m.root as usize];
                let ps: Vec<String> = root.in_names.iter().zip(&m.params).map(|(n, v)| format!("{n} = {v}")).collect();
                d = d.with_note(format!("inputs: {}", ps.join(", ")));
            }
        }
        d = d.with_note(Self::seed_note(cfg));
        RuntimeError { kind: f.kind, diagnostic: d, threads, seed: cfg.seed, later: Vec::new() }
    }

    fn outcome_of_stop(&self, stop: Stop, m: Option<&machine::Machine>, cfg: &RunConfig) -> RunOutcome {
        match stop {
            Stop::Fail(f) => RunOutcome::Error(self.fail_error(&f, m, cfg)),
            Stop::Infeasible(why) => RunOutcome::Infeasible(why),
            Stop::Unsupported(d) => RunOutcome::Invalid(vec![(*d).clone()]),
            Stop::Limit(why) => RunOutcome::Limit(why),
            Stop::Internal(why) => RunOutcome::Internal(why),
        }
    }
}

fn final_state(m: &machine::Machine) -> FinalState {
    let prog = m.prog;
    let globals = prog
        .globals
        .iter()
        .enumerate()
        .map(|(g, var)| {
            let copies = if var.group_shared { m.mem.slots.len() } else { 1 };
            let vals = (0..copies).map(|c| m.mem.globals[m.mem.slots[c][g] as usize].clone()).collect();
            (var.name.clone(), vals)
        })
        .collect();
    let root = &prog.procs[m.root as usize];
    let params = root.in_names.iter().cloned().zip(m.params.iter().cloned()).collect();
    let outs = root.out_names.iter().cloned().zip(m.threads[0].outs.iter().cloned()).collect();
    FinalState { globals, params, outs, steps: m.steps() }
}

/// One run of a program's kernel (see [`Interpreter::run`]).
pub fn run_program(program: &Program, cfg: &RunConfig) -> RunOutcome {
    match Interpreter::new(program) {
        Ok(i) => i.run(cfg),
        Err(d) => RunOutcome::Invalid(d),
    }
}

/// A sequential run of a plain Boogie procedure with the given inputs (others arbitrary, seed
/// 0): the oracle for tests of program transformations.
pub fn run_procedure(program: &Program, name: &str, inputs: &Inputs) -> RunOutcome {
    let cfg = RunConfig { inputs: inputs.clone(), ..RunConfig::default() };
    match Interpreter::new(program) {
        Ok(i) => i.run_procedure(name, &cfg),
        Err(d) => RunOutcome::Invalid(d),
    }
}

/// Replays a counterexample: only `threads` run, with fixed inputs (parameters, memory,
/// constants) and the given sizes and seed.
pub fn replay(program: &Program, threads: &[ThreadId], inputs: &Inputs, cfg: &RunConfig) -> RunOutcome {
    let cfg = RunConfig { threads: Some(threads.to_vec()), inputs: inputs.clone(), ..cfg.clone() };
    run_program(program, &cfg)
}

/// What many runs showed.
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    pub runs: u64,
    pub completed: u64,
    pub infeasible: u64,
    pub limited: u64,
    /// The first error, with the run's index.
    pub error: Option<(u64, RuntimeError)>,
    pub invalid: Option<Vec<Diagnostic>>,
    pub internal: Option<String>,
    /// A sample reason for infeasible / limited runs.
    pub infeasible_reason: Option<String>,
    pub limit_reason: Option<String>,
    pub steps: u64,
}

/// Runs the kernel `runs` times with seeds `cfg.seed, cfg.seed + 1, …`, stopping at the first
/// error.
pub fn run_many(interp: &Interpreter, cfg: &RunConfig, runs: u64) -> RunSummary {
    run_many_with(cfg, runs, |c| interp.run(c))
}

/// Runs `run` with seeds `cfg.seed, cfg.seed + 1, …` and sums up, stopping at the first error.
pub fn run_many_with(cfg: &RunConfig, runs: u64, mut run: impl FnMut(&RunConfig) -> RunOutcome) -> RunSummary {
    let mut s = RunSummary::default();
    for k in 0..runs {
        let c = RunConfig { seed: cfg.seed.wrapping_add(k), ..cfg.clone() };
        s.runs += 1;
        match run(&c) {
            RunOutcome::Completed(f) => {
                s.completed += 1;
                s.steps += f.steps;
            }
            RunOutcome::Infeasible(why) => {
                s.infeasible += 1;
                s.infeasible_reason.get_or_insert(why);
            }
            RunOutcome::Limit(why) => {
                s.limited += 1;
                s.limit_reason.get_or_insert(why);
            }
            RunOutcome::Error(e) => {
                s.error = Some((k, e));
                break;
            }
            RunOutcome::Invalid(d) => {
                s.invalid = Some(d);
                break;
            }
            RunOutcome::Internal(why) => {
                s.internal = Some(why);
                break;
            }
        }
    }
    s
}
