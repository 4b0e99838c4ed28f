//! The verification engine: from a program to one verdict per implementation.
//!
//! Pipeline per implementation (Boogie's, see `crate::desugar` for the first half):
//! desugar → [`crate::passify`] → [`crate::wp`] (linear-size VC) → [`crate::solver`] (Z3) →
//! [`crate::report`] (diagnostics); with `houdini`, [`crate::houdini`] first fixes the values
//! of the candidates and the final run assumes them.
//!
//! Parallelism: a pool of worker threads checks the implementations, each in a Z3 context of
//! its own (`context`), so that an implementation's verdict does not depend on which others
//! shared its worker; the calling thread coordinates and returns the results in program order,
//! whatever the schedule.
//!
//! The parts, in the order a run meets them:
//! - [`options`] and [`outcome`]: what a run is asked ([`VerifyOptions`]) and what it found
//!   ([`Outcome`], [`ImplResult`], [`ProgramResult`]);
//! - `pool`: the workers' shared state, the commands and messages between the coordinator
//!   and the workers, and the Z3 contexts they publish for interrupts;
//! - `worker`: one worker thread: its encoding, the units it takes, its commands;
//! - `unit`: one implementation's solver, built once and checked as often as asked;
//! - `coordinate`: the calling thread, which gathers builds, runs Houdini and the results;
//! - the Houdini strategies, which schedule [`crate::houdini`]'s checks on the workers:
//!   `rounds` (Boogie's rounds, one solver per implementation) and `asynchronous` (several
//!   solvers per implementation, `--split-vc` or `--portfolio`, without rounds);
//! - [`Cancel`]: a stop from outside the run (the driver's speculative search);
//! - [`emit`]: `kivl transform --emit`, the passive program or the VCs as text.

mod asynchronous;
mod cancel;
mod context;
mod coordinate;
pub mod emit;
pub mod options;
pub mod outcome;
mod pool;
mod rounds;
mod unit;
mod worker;

pub use cancel::Cancel;
pub use emit::{emit_stage, EmitStage};
pub use options::VerifyOptions;
pub use outcome::{ImplResult, Outcome, ProgramResult, SKIPPED_AT_FIRST_ERROR};
pub use pool::WORKER_STACK;

use crate::desugar::{self, DesugarOptions};
use crate::houdini;
use crate::smt::Encoder;
use crate::solver::configure_z3;
use coordinate::coordinate;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::{Diagnostic, ErrorKind};
use pool::{Cmd, Msg, Shared};
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::mpsc::channel;
use std::sync::Mutex;
use unit::global_vars;
use worker::run_worker;

/// Verifies every implementation of `program` (a checked program; docs/kbpl.md §2-3 semantics).
pub fn verify_program(program: &Program, opts: &VerifyOptions) -> ProgramResult {
    match prepare(program, opts) {
        Ok(prepared) => verify_prepared(prepared, opts),
        Err(d) => ProgramResult::invalid(d),
    }
}

/// A program as the engine verifies it: the output of [`prepare`].
pub struct Prepared<'p> {
    /// The declarations the implementations are verified against: monomorphised, with
    /// Houdini each `{:candidate}` guarded by an existential constant, and with abstracted
    /// value types ([`crate::abstract_values`]; the bodies it holds are not part of the VC).
    pub program: Cow<'p, Program>,
    /// Houdini's guards, each with the span of its clause (empty without Houdini).
    pub origins: Vec<(Name, Span)>,
    /// The implementations to verify, desugared (acyclic, call-free, `old`-free).
    pub inputs: Vec<desugar::VcInput>,
}

impl Prepared<'_> {
    /// The desugared program as one program (what `kivl transform --emit desugared` prints):
    /// the declarations without bodies, and the implementations in block form.
    pub fn desugared_program(&self) -> Program {
        let mut decls = desugar::declarations(&self.program);
        decls.extend(self.inputs.iter().map(|v| v.imp.to_decl()));
        Program { decls }
    }
}

/// The engine's preparation of a checked program: monomorphisation (with the expansion of
/// `{:inline}` functions), with Houdini the guarding of candidates
/// ([`houdini::guard_candidates`]), then desugaring with `opts`' options (without Houdini the
/// candidates are dropped), then the value abstraction ([`crate::abstract_values`], unless
/// `opts.abstract_values` is off). One function for [`verify_program`] and for `kivl transform
/// --emit desugared|passified|vc` ([`emit`]), so that what is printed is what is verified.
pub fn prepare<'p>(program: &'p Program, opts: &VerifyOptions) -> Result<Prepared<'p>, Vec<Diagnostic>> {
    let program = crate::mono::monomorphise(program)?;
    let (program, origins) = if opts.houdini {
        let (guarded, origins) = houdini::guard_candidates(&program);
        (Cow::Owned(guarded), origins)
    } else {
        (program, Vec::new())
    };
    let dopts = DesugarOptions {
        drop_candidates: !opts.houdini,
        inline_depth: opts.inline_depth,
        loop_unwind: opts.loop_unwind,
        ..Default::default()
    };
    let inputs = desugar::prepare_with_options(&program, &dopts)?;
    if !opts.abstract_values {
        return Ok(Prepared { program, origins, inputs });
    }
    let (decls, inputs) = crate::abstract_values::abstract_values(program.into_owned().decls, inputs);
    Ok(Prepared { program: Cow::Owned(Program { decls }), origins, inputs })
}

/// Verifies a prepared program ([`prepare`]) with the options it was prepared with.
pub fn verify_prepared(prepared: Prepared<'_>, opts: &VerifyOptions) -> ProgramResult {
    let Prepared { program, origins, inputs } = prepared;
    let impls: Vec<BlockImpl> = inputs.into_iter().map(|v| v.imp).collect();
    let mut result = verify_block_impls(&program, &impls, opts);
    if let Some(h) = &mut result.houdini {
        h.origins = origins;
    }
    result
}

/// Verifies desugared implementations (acyclic, call-free, `old`-free block bodies) in the
/// context of `program`'s declarations.
pub fn verify_block_impls(program: &Program, impls: &[BlockImpl], opts: &VerifyOptions) -> ProgramResult {
    configure_z3();
    let jobs = opts.threads();
    // With Houdini, `split_vc` or `portfolio`, and fewer implementations than threads, each
    // implementation is checked on `share` solvers at once: each owns a share of its assertions
    // (`split_vc`) or races the others on the whole VC (`portfolio`).
    let several = opts.split_vc || opts.portfolio;
    let share = if opts.houdini && several && !impls.is_empty() && impls.len() < jobs { jobs / impls.len() } else { 1 };
    let workers = jobs.min(impls.len() * share).max(1);
    let candidates: Vec<Name> = if opts.houdini { Encoder::existentials(program) } else { Vec::new() };
    let (identities, start_false) = match &opts.houdini_warm {
        Some(warm) if opts.houdini => {
            let ids = houdini::identities(program, &candidates);
            let start = houdini::start_false(&ids, warm);
            (ids, start)
        }
        _ => Default::default(),
    };
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
        identities: &identities,
        start_false: &start_false,
        opts,
        share,
        race: share > 1 && !opts.split_vc,
        workers,
        stop: AtomicBool::new(false),
        first_error: AtomicUsize::new(usize::MAX),
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
