//! The driver: every path a checked program takes through kivl, stage by stage, in one place.
//!
//! The front end (the caller's: reading, the OpenCL/CUDA translation, parsing, resolution and
//! type checking, the GPU prelude, `modifies` inference) hands the driver a checked program.
//! It then takes one path:
//!
//! | path | taken by | stages |
//! |---|---|---|
//! | plain Boogie | programs without a `{:kernel}`, GPUVerify's two-thread output | (bpl-candidates, GPUVerify's `.bpl` with `--houdini`) → engine |
//! | two-thread (seed 001 ch. 4) | kernels | candidates (`--houdini`) → two-thread → engine → vacuity → explain |
//! | lock-step (seed 000 §4) | `--lockstep N` | inlined → (predicated) → (lockstep) → lockstep-checked → engine → vacuity → explain |
//! | termination (seed 004 §4) | `--termination`, after the main path | termination → engine (Houdini) → judge |
//!
//! and every engine call goes through the engine's own stages: desugared
//! ([`vcgen::engine::prepare`]: monomorphisation, Houdini's candidate guards, desugaring with
//! the run's options) → passified → vc → Z3 (`vcgen`).
//!
//! `kivl verify` ([`verify`]) and `kivl transform --emit STAGE` ([`emit`]) run the same
//! functions: `emit` runs the path that STAGE is on and stops there, so the printed program is
//! the one `verify` goes on with (the engine's stages included: both start from `prepare`).
//! Stages in parentheses are views that `emit` computes when tapped and `verify` only for the
//! pass checker (the lock-step construction predicates internally). With debug assertions or
//! `KIVL_CHECK_PASSES=1`, the pass checker ([`pass_check`]) holds to its promise the driver's
//! input (stage `checked`), the output of every stage above, views included, and the engine's
//! `desugared` and `passified` programs; not `vc` (SMT-LIB). `tests/driver_stages.rs` lists
//! the stages it checks ([`verify_checked`], [`emit_checked`]) and fails on one it misses.

pub mod hints;
pub mod pass_check;
pub mod shorthands;
pub mod speculate;
pub mod stage;
pub mod staged;

pub use shorthands::{
    verify_kernel, verify_lockstep, verify_lockstep_with, verify_with_inference, verify_with_inference_opts,
    InferOptions,
};
pub use stage::{Path, Stage};

use crate::invariants::{self, dynamic::DynamicOptions, report::InferenceReport};
use crate::lockstep::{self, RaceChecks};
use crate::termination::{self, TerminationResult};
use crate::two_thread::{self, KernelOptions};
use ivl::ast::{DeclKind, Program};
use ivl::diag::Diagnostic;
use std::sync::Mutex;
use vcgen::engine::{Prepared, ProgramResult, VerifyOptions};

/// What the driver is asked to do.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub kernel: KernelOptions,
    pub engine: VerifyOptions,
    /// `--lockstep N`: verify kernels on the lock-step program of N threads.
    pub lockstep: Option<usize>,
    /// Generate candidate invariants for kernels (then Houdini runs).
    pub infer: bool,
    /// Limits of the concrete runs that drop refuted candidates; `None`: no runs.
    pub dynamic: Option<DynamicOptions>,
    /// Report what the inference generated and kept.
    pub infer_info: bool,
    /// Also prove that every thread terminates.
    pub termination: bool,
    /// `--kernel-args`: scalar parameters fixed per kernel ([`crate::kernel_args`]).
    pub kernel_args: Vec<crate::kernel_args::KernelArgs>,
}

/// What `verify` found.
#[derive(Debug, Default)]
pub struct Verdicts {
    /// The main path's results: per implementation, and program-level (input) errors.
    pub result: ProgramResult,
    /// Whether the program is a kernel (verified on the two-thread or lock-step path).
    pub kernel: bool,
    pub inference: Option<InferenceReport>,
    /// With `Config::termination`, unless the main path found an input error.
    pub termination: Option<TerminationResult>,
}

/// Verifies a checked program.
pub fn verify(program: &Program, cfg: &Config) -> Verdicts {
    Run::new(cfg, None, pass_check::enabled()).verify(program)
}

/// The output of `stage` on a checked program, as `.kbpl` (SMT-LIB for `vc`). The path is the
/// one `stage` is on (lock-step stages with `threads` threads, `candidates` with inference);
/// the engine's stages follow the path `verify` would take.
pub fn emit(program: &Program, stage: Stage, cfg: &Config, threads: usize) -> Result<String, Vec<Diagnostic>> {
    emit_run(program, stage, cfg, threads, pass_check::enabled()).0
}

/// [`verify`] with the pass checker on, and the stages whose output it checked, in the order
/// they ran (a stage run more than once, such as the engine's, is listed each time): what the
/// test that every stage is checked compares with [`Stage::ALL`].
pub fn verify_checked(program: &Program, cfg: &Config) -> (Verdicts, Vec<Stage>) {
    let run = Run::new(cfg, None, true);
    let verdicts = run.verify(program);
    (verdicts, run.into_checked())
}

/// [`emit`] with the pass checker on, and the stages whose output it checked.
pub fn emit_checked(
    program: &Program,
    stage: Stage,
    cfg: &Config,
    threads: usize,
) -> (Result<String, Vec<Diagnostic>>, Vec<Stage>) {
    emit_run(program, stage, cfg, threads, true)
}

fn emit_run(
    program: &Program,
    stage: Stage,
    cfg: &Config,
    threads: usize,
    check: bool,
) -> (Result<String, Vec<Diagnostic>>, Vec<Stage>) {
    let cfg = Config {
        lockstep: if stage.path() == Path::Lockstep { Some(threads) } else { cfg.lockstep },
        infer: cfg.infer || stage == Stage::Candidates,
        ..cfg.clone()
    };
    let run = Run::new(&cfg, Some(stage), check);
    let out = run.emit(program, stage);
    (out, run.into_checked())
}

/// Why a path stopped before its end.
enum Halt {
    /// `emit`'s stage was reached: its printed output.
    Emit(String),
    /// A stage refused the program (an unsupported construct, sizes no thread can run …).
    Invalid(Vec<Diagnostic>),
}

impl Halt {
    fn into_result(self) -> ProgramResult {
        match self {
            Halt::Invalid(errors) => ProgramResult { errors, ..Default::default() },
            Halt::Emit(_) => unreachable!("only `emit` taps a stage"),
        }
    }
}

type Flow<T> = Result<T, Halt>;

/// A stage's output that the pass checker checks and `emit` prints.
trait Staged {
    /// The program as printed (for the lock-step program: as plain Boogie).
    fn program(&self) -> std::borrow::Cow<'_, Program>;
}

impl Staged for Program {
    fn program(&self) -> std::borrow::Cow<'_, Program> {
        std::borrow::Cow::Borrowed(self)
    }
}

impl Staged for invariants::Candidates {
    fn program(&self) -> std::borrow::Cow<'_, Program> {
        std::borrow::Cow::Borrowed(&self.program)
    }
}

impl Staged for two_thread::Built {
    fn program(&self) -> std::borrow::Cow<'_, Program> {
        std::borrow::Cow::Borrowed(&self.program)
    }
}

impl Staged for termination::TerminationProgram {
    fn program(&self) -> std::borrow::Cow<'_, Program> {
        std::borrow::Cow::Borrowed(&self.program)
    }
}

impl Staged for lockstep::CheckedLockstep {
    /// Without `{:kernel}` attributes: a lock-step program is sequential Boogie, and `kivl
    /// verify` on the printed text must not reduce it to two threads again.
    fn program(&self) -> std::borrow::Cow<'_, Program> {
        let mut p = self.program.clone();
        for d in &mut p.decls {
            match &mut d.kind {
                DeclKind::Procedure(pr) => pr.attrs.retain(|a| a.name.name != "kernel"),
                DeclKind::Implementation(i) => i.attrs.retain(|a| a.name.name != "kernel"),
                _ => {}
            }
        }
        std::borrow::Cow::Owned(p)
    }
}

impl Staged for Prepared<'_> {
    /// The declarations and the desugared implementations, as `--emit desugared` prints them.
    fn program(&self) -> std::borrow::Cow<'_, Program> {
        std::borrow::Cow::Owned(self.desugared_program())
    }
}

/// The passive implementations of a prepared program (stage `passified`).
struct Passified<'a, 'p> {
    prepared: &'a Prepared<'p>,
    passives: Vec<vcgen::passify::Passive>,
}

impl Staged for Passified<'_, '_> {
    fn program(&self) -> std::borrow::Cow<'_, Program> {
        std::borrow::Cow::Owned(vcgen::engine::emit::passified_program(self.prepared, &self.passives))
    }
}

/// One run of the driver: `tap` is `emit`'s stage; with `check`, the pass checker holds every
/// stage's output to its promise, and `checked` lists the stages it checked.
struct Run<'a> {
    cfg: &'a Config,
    tap: Option<Stage>,
    check: bool,
    /// Behind a lock because the speculative searches ([`speculate`]) run the engine from two
    /// threads.
    checked: Mutex<Vec<Stage>>,
}

impl<'a> Run<'a> {
    fn new(cfg: &'a Config, tap: Option<Stage>, check: bool) -> Self {
        Run { cfg, tap, check, checked: Mutex::new(Vec::new()) }
    }

    fn into_checked(self) -> Vec<Stage> {
        self.checked.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `kivl verify`: the main path, then termination when asked.
    fn verify(&self, program: &Program) -> Verdicts {
        let cfg = self.cfg;
        let kernel = two_thread::is_kernel_program(program);
        let invalid =
            |errors| Verdicts { result: ProgramResult { errors, ..Default::default() }, kernel, ..Default::default() };
        // The driver's input is the front end's last stage's output.
        if let Err(halt) = self.checked(Stage::Checked, program) {
            return invalid(halt.into_result().errors);
        }
        let program = &match crate::kernel_args::apply(program, &cfg.kernel_args) {
            Ok(p) => p,
            Err(errors) => return invalid(errors),
        };
        let (result, inference) = self.main_path(program).unwrap_or_else(|halt| (halt.into_result(), None));
        let input_error = result.errors.iter().any(|d| d.kind.is_input_error());
        let termination = (cfg.termination && !input_error).then(|| {
            self.termination(program)
                .unwrap_or_else(|halt| TerminationResult { errors: halt.into_result().errors, ..Default::default() })
        });
        Verdicts { result, kernel, inference, termination }
    }

    /// `kivl transform --emit STAGE`: the path `stage` is on, stopped there.
    fn emit(&self, program: &Program, stage: Stage) -> Result<String, Vec<Diagnostic>> {
        let halt = match self.checked(Stage::Checked, program) {
            Err(halt) => Some(halt),
            Ok(()) => {
                let program = &crate::kernel_args::apply(program, &self.cfg.kernel_args)?;
                match stage.path() {
                    Path::FrontEnd => return Ok(ivl::printer::print_program(program)),
                    Path::Termination => self.termination(program).err(),
                    _ => self.main_path(program).err(),
                }
            }
        };
        match halt {
            Some(Halt::Emit(text)) => Ok(text),
            Some(Halt::Invalid(diags)) => Err(diags),
            None => Err(vec![Diagnostic::unsupported(
                format!("stage `{stage}` is not on this program's path (a program without a `{{:kernel}}` procedure is verified as plain Boogie)"),
                ivl::ast::Span::DUMMY,
            )]),
        }
    }

    /// The main path of `program`: lock-step, two-thread or plain Boogie.
    fn main_path(&self, program: &Program) -> Flow<(ProgramResult, Option<InferenceReport>)> {
        if let Some(n) = self.cfg.lockstep {
            return Ok((self.lockstep(program, n)?, None));
        }
        if two_thread::is_kernel_program(program) {
            return self.two_thread(program);
        }
        self.plain(program).map(|r| (r, None))
    }

    /// A program without kernels to reduce. GPUVerify's instrumented Boogie, with Houdini,
    /// gets kivl's strided-access candidates ([`crate::gpuverify_bpl`]) in a second search,
    /// only when the program as GPUVerify wrote it does not verify: the `urem` candidates
    /// cost 2-3x on files that need none (alignedTypes, reduce4), and a first search on fewer
    /// candidates only assumes less (as `staged` argues for kernels). From two threads on the
    /// two searches run side by side ([`speculate`]).
    fn plain(&self, program: &Program) -> Flow<ProgramResult> {
        let houdini = self.cfg.engine.houdini || self.tap == Some(Stage::BplCandidates);
        if !houdini || !crate::gpuverify_bpl::is_instrumented(program) {
            return self.engine(program, &self.cfg.engine);
        }
        let added = crate::gpuverify_bpl::with_candidates(program);
        if self.tap.is_some() {
            let with = self.stage(Stage::BplCandidates, Ok(added.unwrap_or_else(|| program.clone())))?;
            return self.engine(&with, &self.cfg.engine);
        }
        // Nothing to add: a second search would repeat the first.
        let Some(with) = added else { return self.engine(program, &self.cfg.engine) };
        let with = self.stage(Stage::BplCandidates, Ok(with))?;
        let (first, second) =
            speculate::first_then_second(program, &with, &self.cfg.engine, |p, o| self.verified(p, o));
        Ok(match second {
            // A second search that ran out of time says less than the first one's errors.
            Some(second) if !(second.exit_code() == 3 && first.exit_code() == 1) => second,
            _ => first,
        })
    }

    /// Kernels on two threads (seed 001 ch. 4).
    fn two_thread(&self, source: &Program) -> Flow<(ProgramResult, Option<InferenceReport>)> {
        let cfg = self.cfg;
        let program = source;
        let (program, candidates) = if cfg.infer {
            let c = invariants::candidates(program, &cfg.kernel, cfg.dynamic.as_ref());
            let c = self.stage(Stage::Candidates, Ok(c))?;
            (c.program, Some((c.info, c.dynamic)))
        } else if cfg.engine.houdini {
            (program.clone(), None)
        } else {
            // The user's `{:candidate}`s count only with Houdini (docs/kbpl.md §5.4).
            (vcgen::desugar::drop_candidates(program), None)
        };
        let built = self.stage(Stage::TwoThread, two_thread::build(&program, &cfg.kernel))?;
        let vacuity = two_thread::report::vacuity_checks(&built);
        let houdini = VerifyOptions { houdini: cfg.engine.houdini || cfg.infer, ..cfg.engine.clone() };
        // Inferred candidates: a first search without the modular ones (`staged`).
        let linear =
            if cfg.infer && self.tap.is_none() { staged::without_modular_candidates(&built.program) } else { None };
        let mut result = match linear {
            Some(linear) => {
                let (first, second) =
                    speculate::first_then_second(&linear, &built.program, &houdini, |p, o| self.verified(p, o));
                second.unwrap_or(first)
            }
            None => self.engine(&built.program, &houdini)?,
        };
        // Without Houdini: an `assert false` that fails would stop it for every implementation.
        let vacuity_result = if vacuity.is_empty() || !result.errors.is_empty() {
            ProgramResult::default()
        } else {
            self.engine(&vacuity.program, &vacuity_options(&cfg.engine))?
        };
        two_thread::report::explain(&mut result, &built, &vacuity, vacuity_result, &cfg.kernel);
        hints::add(&mut result, source, cfg);
        let inference = candidates
            .filter(|_| cfg.infer_info)
            .map(|(info, dynamic)| invariants::report::build(&info, &dynamic, &result));
        Ok((result, inference))
    }

    /// Kernels on the lock-step program of `n` threads (seed 000 §4.2, Definition 4.1).
    fn lockstep(&self, program: &Program, n: usize) -> Flow<ProgramResult> {
        let program = &self.stage(Stage::Inlined, two_thread::calls::inline_kernel_calls(program))?;
        self.view(Stage::Predicated, || crate::predication::predicate_program(program))?;
        self.view(Stage::Lockstep, || lockstep::lockstep_program(program, n))?;
        let cfg = self.cfg;
        // The user's `{:candidate}`s count only with --houdini; ours always go through Houdini.
        let source = if cfg.engine.houdini { program.clone() } else { vcgen::desugar::drop_candidates(program) };
        let checks = RaceChecks { benign_tolerance: cfg.kernel.benign_tolerance };
        let checked = self.stage(Stage::LockstepChecked, lockstep::checked_lockstep_program(&source, n, checks))?;
        let mut result = self.engine(&checked.program, &VerifyOptions { houdini: true, ..cfg.engine.clone() })?;
        let mut vacuity = self.engine(&checked.vacuity.program, &vacuity_options(&cfg.engine))?;
        for e in std::mem::take(&mut vacuity.errors) {
            if !result.errors.iter().any(|r| r.message == e.message && r.primary.span == e.primary.span) {
                result.errors.push(e);
            }
        }
        checked.vacuity.judge(&mut vacuity, &mut result, |kernel, span| lockstep::unrunnable(kernel, span, n));
        two_thread::counterexample::explain_all(&mut result);
        Ok(result)
    }

    /// Termination of every thread (seed 004 §4): ranking checks proven with Houdini.
    fn termination(&self, program: &Program) -> Flow<TerminationResult> {
        let t = self.stage(Stage::Termination, termination::termination_program(program, &self.cfg.kernel))?;
        if t.loops.is_empty() {
            return Ok(TerminationResult::default());
        }
        let houdini = VerifyOptions { houdini: true, ..self.cfg.engine.clone() };
        let verified = self.engine(&t.program, &houdini)?;
        Ok(termination::judge(&t, verified, &houdini))
    }

    /// The VC engine (`vcgen`): its preparation ([`vcgen::engine::prepare`]: monomorphisation,
    /// Houdini's candidate guards, desugaring; stage `desugared`), then passification (stage
    /// `passified`, which the engine's workers run again on their own copies), the VCs and Z3;
    /// `emit` may stop at its stages. On the way to a verdict, an input the preparation refuses
    /// is the result (as `vcgen::engine::verify_program` reports it), not the end of the path.
    fn engine(&self, program: &Program, opts: &VerifyOptions) -> Flow<ProgramResult> {
        if self.tap.is_some_and(|s| s.path() != Path::Engine) {
            // The tapped stage was not on this path: nothing to verify.
            return Ok(ProgramResult::default());
        }
        let prepared = match self.stage(Stage::Desugared, vcgen::engine::prepare(program, opts)) {
            Ok(p) => p,
            Err(halt @ Halt::Invalid(_)) if self.tap.is_none() => return Ok(halt.into_result()),
            Err(halt) => return Err(halt),
        };
        if self.tap.is_some() || self.check {
            let passified = vcgen::engine::emit::passify_all(&prepared);
            // Verifying, the workers report a failed passification in their own way.
            if self.tap.is_some() || passified.is_ok() {
                let passified =
                    self.stage(Stage::Passified, passified.map(|passives| Passified { prepared: &prepared, passives }));
                let passified = match passified {
                    Ok(p) => p,
                    Err(halt @ Halt::Invalid(_)) if self.tap.is_none() => return Ok(halt.into_result()),
                    Err(halt) => return Err(halt),
                };
                if self.tap == Some(Stage::Vc) {
                    let vc = vcgen::engine::emit::vc_text(&prepared, &passified.passives);
                    return Err(vc.map_or_else(Halt::Invalid, Halt::Emit));
                }
            }
        }
        debug_assert!(self.tap.is_none(), "a tapped engine stage ended the path");
        Ok(vcgen::engine::verify_prepared(prepared, opts))
    }

    /// The engine on the way to a verdict: its result, whatever stopped it.
    fn verified(&self, program: &Program, opts: &VerifyOptions) -> ProgramResult {
        self.engine(program, opts).unwrap_or_else(Halt::into_result)
    }

    /// Ends the path with `out`'s diagnostics when the stage failed; checks its output (with
    /// the pass checker on); ends the path with the printed output when it is the tapped stage.
    fn stage<T: Staged>(&self, stage: Stage, out: Result<T, Vec<Diagnostic>>) -> Flow<T> {
        let out = out.map_err(Halt::Invalid)?;
        self.checked(stage, &out)?;
        if self.tap == Some(stage) {
            return Err(Halt::Emit(ivl::printer::print_program(&out.program())));
        }
        Ok(out)
    }

    /// With the pass checker on: holds `out`, the output of `stage`, to the pass promise
    /// ([`pass_check`]), and notes that the stage was checked.
    fn checked<T: Staged + ?Sized>(&self, stage: Stage, out: &T) -> Flow<()> {
        if !self.check {
            return Ok(());
        }
        self.checked.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(stage);
        pass_check::check(stage, &out.program()).map_err(|d| Halt::Invalid(vec![d]))
    }

    /// A stage that is not on the way to the result (a view for `emit`): computed when tapped,
    /// and with the pass checker on, so that the checker sees it too. Untapped, a view that
    /// refuses the program does not end the path (the stages on the way report their own
    /// refusals); a view that breaks the pass promise does.
    fn view(&self, stage: Stage, out: impl FnOnce() -> Result<Program, Vec<Diagnostic>>) -> Flow<()> {
        if self.tap == Some(stage) {
            self.stage(stage, out())?;
        } else if self.check {
            if let Ok(p) = out() {
                self.checked(stage, &p)?;
            }
        }
        Ok(())
    }
}

/// The options of a vacuity check (is each kernel runnable at all?): without Houdini, and
/// every kernel checked even with `--stop-at-first-error`: a kernel whose vacuity check were
/// skipped could be reported verified although no thread can run it.
fn vacuity_options(engine: &VerifyOptions) -> VerifyOptions {
    VerifyOptions { houdini: false, stop_at_first_error: false, ..engine.clone() }
}
