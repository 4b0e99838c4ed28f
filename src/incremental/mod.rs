//! Incremental verification: the pipeline after type checking as salsa queries on the
//! long-lived database of `ivl::db`, used by `kivl watch` and `kivl lsp` (issue 20).
//!
//! ```text
//! SourceFile.text ─ file_diagnostics / file_program (ivl::db, per declaration)
//!   └ checked(file)            the driver's input: prelude added, modifies inferred
//!      └ units(job)            one unit per implementation, or one for the whole program
//!         └ sliced(unit)       slice.rs: what the unit's verification reads, in layout.rs's
//!            │                 canonical layout (no absolute offsets; the whole program
//!            │                 as it is) …
//!            ├ slice_program   … a firewall: equal after an edit elsewhere, so backdated
//!            ├ slice_layout    where the slice's declarations are now
//!            └ unit_verdict    the driver (gpu_passes::driver::verify) on the slice and the flags
//!               └ unit_result  its spans mapped back with the current layout
//!                  └ file_report(job): the results merged in program order
//! ```
//!
//! Editing one procedure body changes the slices of that procedure and of the implementations
//! that inline it; a changed contract also those of its callers. Only their verdicts re-run;
//! every other slice is equal to the previous one and salsa backdates it.
//!
//! **The unit.** Per implementation only where the engine itself verifies implementations one
//! by one and nothing is shared between them: plain Boogie programs without Houdini. Then the
//! merged result is what a whole-program run gives (the tests compare them file by file).
//! Per kernel for a file of several kernels and no other procedure with a body, on the
//! two-thread path (`slice::kernel_slice`: the file without the other kernels; the reduction
//! builds each kernel's variants on their own, so the results are the whole run's, and
//! Houdini's statistics are added up). One unit for the whole program otherwise, re-verified
//! when anything changes:
//! - kernels with helper procedures (inlined into the kernels that call them), and kernels
//!   with `--lockstep`, `--termination`, `--infer-info`, `--kernel-args` or
//!   `--print-assignment`, whose results are the whole program's;
//! - Houdini (`--houdini`, `--lockstep`, `--termination`): a candidate refuted in one
//!   implementation is dropped from every caller's and callee's assumptions, so the fixpoint
//!   is a property of the whole call graph — a smaller unit could keep a candidate that the
//!   whole run refutes. (A call-graph component would be exact too; files with Houdini are
//!   kernels, almost always one component.)
//! - a program with an input error found by the driver (an unsupported construct): the
//!   whole run decides which errors it reports, so the units' results are not merged.
//!
//! Houdini restarts from the previous run's refutations (`warm.rs`): a unit verified with
//! Houdini starts with the candidates refuted last time false, unless their procedure, its
//! callers or its callees' contracts changed; a warm run that does not verify is run cold again.
//! `.cl`/`.cu` files, GPUVerify `.bpl` files with a location table and `--replay` are verified
//! by the ordinary pipeline on every change (the translation is not a query).

pub mod layout;
pub mod slice;
pub mod warm;

use crate::pipeline::VerifyConfig;
use crate::report::FileReport;
use gpu_passes::driver::{self, Verdicts};
use ivl::ast::Program;
use ivl::db::SourceFile;
use ivl::diag::Diagnostic;
use layout::Layout;
use salsa::plumbing::{AsId as _, FromId as _};
use slice::ImplKey;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use vcgen::engine::ProgramResult;
use vcgen::engine::WORKER_STACK;

/// A value compared by identity: a verification result is never equal to an earlier one, so
/// the cheap queries after it re-run whenever it does.
#[derive(Debug)]
pub struct Shared<T>(pub Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Eq for Shared<T> {}

/// The flags of the runs, compared by their `Debug` form (as the cache keys on it).
#[derive(Clone)]
pub struct Flags {
    cfg: Arc<VerifyConfig>,
    key: String,
}

impl Flags {
    pub fn new(cfg: &VerifyConfig) -> Flags {
        Flags { cfg: Arc::new(cfg.clone()), key: format!("{cfg:?}") }
    }

    /// Whether implementations are verified one by one (see the module doc). Inference
    /// (`infer`, on by default) concerns kernels only, which are one unit anyway. With
    /// `--inline-depth`, calls of procedures without `{:inline}` are inlined too, which the
    /// slices (callees' contracts only) do not follow.
    fn per_implementation(&self) -> bool {
        let d = &self.cfg.driver;
        d.lockstep.is_none()
            && !d.engine.houdini
            && d.engine.inline_depth.is_none()
            && !d.termination
            && !self.cfg.print_assignment
    }

    /// Whether the kernels of a file are verified one by one (see the module doc): on the
    /// two-thread path, whose reports of the kernels are independent, and not where a result
    /// is the whole program's (termination, `--infer-info`, the assignment) or names kernels
    /// (`--kernel-args`).
    fn per_kernel(&self) -> bool {
        let d = &self.cfg.driver;
        d.lockstep.is_none()
            && !d.termination
            && !d.infer_info
            && d.kernel_args.is_empty()
            && !self.cfg.print_assignment
    }
}

impl PartialEq for Flags {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Flags {}

/// One file verified with one set of flags.
#[salsa::input]
pub struct Job {
    #[returns(copy)]
    pub file: SourceFile,
    #[returns(ref)]
    pub flags: Flags,
    /// The units' last Houdini refutations (state outside salsa's tracking, `warm.rs`).
    #[returns(ref)]
    pub warm: warm::WarmStore,
}

/// What is verified at once: one implementation (`key`) or the whole program (`None`).
#[salsa::interned]
pub struct Unit<'db> {
    #[returns(copy)]
    pub job: Job,
    #[returns(ref)]
    pub key: Option<ImplKey>,
}

/// The checked program the driver takes (as `front::checked`), or the front end's diagnostics.
#[salsa::tracked(returns(ref))]
pub fn checked(db: &dyn salsa::Database, file: SourceFile) -> Result<Arc<Program>, Vec<Diagnostic>> {
    crate::front::db_diagnostics(ivl::db::file_diagnostics(db, file))?;
    let program = ivl::db::file_program(db, file);
    Ok(Arc::new(crate::front::complete((**program).clone())?))
}

/// The units of a job, in program order (none when the front end found errors).
#[salsa::tracked(returns(ref))]
pub fn units(db: &dyn salsa::Database, job: Job) -> Vec<Unit<'_>> {
    let Ok(program) = checked(db, job.file(db)) else { return Vec::new() };
    let flags = job.flags(db);
    let keys = if gpu_passes::two_thread::is_kernel_program(program) {
        slice::kernels(program).filter(|_| flags.per_kernel())
    } else {
        Some(slice::implementations(program)).filter(|k| !k.is_empty() && flags.per_implementation())
    };
    match keys {
        Some(keys) => keys.into_iter().map(|k| Unit::new(db, job, Some(k))).collect(),
        None => vec![Unit::new(db, job, None)],
    }
}

/// The unit's program in the canonical layout, and the layout (re-runs on every edit).
#[salsa::tracked(returns(ref))]
fn sliced<'db>(db: &'db dyn salsa::Database, unit: Unit<'db>) -> Option<(Arc<Program>, Layout)> {
    let program = checked(db, unit.job(db).file(db)).as_ref().ok()?;
    // The whole program keeps its absolute spans: its verdicts (kernels' inference and
    // termination reports included) are used as they are.
    let Some(key) = unit.key(db) else { return Some((Arc::clone(program), Layout::default())) };
    let slice = if gpu_passes::two_thread::is_kernel_program(program) {
        slice::kernel_slice(program, key)
    } else {
        slice::slice(program, key)
    };
    let (canonical, layout) = layout::canonical(slice?);
    Some((Arc::new(canonical), layout))
}

/// The slice alone: equal to the previous revision's unless the unit's text or something it
/// depends on changed.
#[salsa::tracked(returns(ref))]
pub fn slice_program<'db>(db: &'db dyn salsa::Database, unit: Unit<'db>) -> Option<Arc<Program>> {
    sliced(db, unit).as_ref().map(|(p, _)| Arc::clone(p))
}

#[salsa::tracked(returns(ref))]
fn slice_layout<'db>(db: &'db dyn salsa::Database, unit: Unit<'db>) -> Layout {
    sliced(db, unit).as_ref().map(|(_, l)| l.clone()).unwrap_or_default()
}

/// The driver on the unit's slice: the expensive query, with canonical spans.
#[salsa::tracked(returns(ref))]
pub fn unit_verdict<'db>(db: &'db dyn salsa::Database, unit: Unit<'db>) -> Option<Shared<Verdicts>> {
    let program = slice_program(db, unit).as_ref()?;
    let job = unit.job(db);
    let cfg = &job.flags(db).cfg;
    if warm::applies(cfg) {
        return Some(Shared(Arc::new(warm::verify(program, &cfg.driver, job.warm(db), unit.key(db)))));
    }
    Some(Shared(Arc::new(driver::verify(program, &cfg.driver))))
}

/// The unit's result with the spans of the current text.
#[salsa::tracked(returns(ref))]
pub fn unit_result<'db>(db: &'db dyn salsa::Database, unit: Unit<'db>) -> Option<Shared<ProgramResult>> {
    let verdicts = unit_verdict(db, unit).as_ref()?;
    Some(Shared(Arc::new(slice_layout(db, unit).restore_result(verdicts.0.result.clone()))))
}

/// The report of a job, as `kivl verify` gives it.
#[salsa::tracked(returns(ref))]
pub fn file_report(db: &dyn salsa::Database, job: Job) -> Shared<FileReport> {
    let file = job.file(db);
    let source = ivl::diag::SourceFile::new(file.path(db).clone(), file.text(db).clone());
    let cfg = &job.flags(db).cfg;
    let report = match checked(db, file) {
        Err(diags) => FileReport::invalid(source, diags.clone()),
        Ok(program) => {
            let verdicts = merged(db, job).unwrap_or_else(|| driver::verify(program, &cfg.driver));
            crate::verdicts::file_report(source, verdicts, cfg.print_assignment, cfg.driver.engine.loop_unwind)
        }
    };
    Shared(Arc::new(report))
}

/// The per-implementation results in program order, as the driver's verdicts; `None` when the
/// program is one unit or a unit found an input error (then the whole program is verified).
fn merged(db: &dyn salsa::Database, job: Job) -> Option<Verdicts> {
    let units = units(db, job);
    if units.iter().any(|u| u.key(db).is_none()) {
        let whole = unit_verdict(db, *units.first()?).as_ref()?;
        return copy_verdicts(&whole.0);
    }
    let mut result = ProgramResult::default();
    let mut kernel = false;
    for u in units {
        let r = unit_result(db, *u).as_ref()?;
        if !r.0.errors.is_empty() {
            return None;
        }
        result.impls.extend(r.0.impls.iter().cloned());
        for n in &r.0.notes {
            if !result.notes.contains(n) {
                result.notes.push(n.clone());
            }
        }
        if let Some(h) = &r.0.houdini {
            add_houdini(result.houdini.get_or_insert_with(Default::default), h);
        }
        kernel |= unit_verdict(db, *u).as_ref().is_some_and(|v| v.0.kernel);
    }
    Some(Verdicts { result, kernel, ..Default::default() })
}

/// The Houdini statistics of several units (kernels) as one run's: candidates and kept ones,
/// checks and time added up, the rounds of the longest.
fn add_houdini(sum: &mut vcgen::houdini::HoudiniStats, h: &vcgen::houdini::HoudiniStats) {
    sum.candidates.extend(h.candidates.iter().cloned());
    sum.kept += h.kept;
    sum.checks += h.checks;
    sum.rounds = sum.rounds.max(h.rounds);
    sum.time += h.time;
    if sum.limited.is_none() {
        sum.limited = h.limited.clone();
    }
}

/// A copy of a whole-program verdict, if it has no part that cannot be copied (a termination
/// result is not `Clone`: then the program is verified again, as without a database).
fn copy_verdicts(v: &Verdicts) -> Option<Verdicts> {
    if v.termination.is_some() {
        return None;
    }
    Some(Verdicts { result: v.result.clone(), kernel: v.kernel, inference: v.inference.clone(), termination: None })
}

/// A copy of a report (reports are not `Clone`; the database hands out shared ones).
pub fn copy_report(r: &FileReport) -> FileReport {
    let mut out = FileReport::new(r.source.clone(), r.verdict, r.errors.clone());
    out.info = r.info.clone();
    out.extra = r.extra.clone();
    out
}

/// What a [`Session::verify`] did.
pub struct Outcome {
    pub report: FileReport,
    /// Units whose verdict was computed in this call, and all units.
    pub verified_units: usize,
    pub units: usize,
}

/// The long-lived database with the files verified so far.
pub struct Session {
    db: ivl::db::Database,
    flags: Flags,
    jobs: HashMap<String, Job>,
    /// The query executions of the last [`Session::verify`], as `query(Id(..))`.
    executions: Vec<String>,
}

impl Session {
    pub fn new(cfg: &VerifyConfig) -> Session {
        // The log tells which units were verified again (one short string per execution).
        let db = ivl::db::Database::with_execution_log();
        Session { db, flags: Flags::new(cfg), jobs: HashMap::new(), executions: Vec::new() }
    }

    /// The query executions of the last [`Session::verify`] (salsa's `WillExecute` events).
    #[cfg(test)]
    pub fn executions(&self) -> &[String] {
        &self.executions
    }

    /// Whether the file is verified through the database (see the module doc). Not with
    /// GPUVerify's options for kernel files: `verify`'s front end refuses them for this file.
    fn incremental(&self, name: &str, text: &str) -> bool {
        let path = std::path::Path::new(name);
        !self.flags.cfg.replay
            && crate::front::kernel_only_options(&self.flags.cfg.frontend).is_none()
            && frontend::Language::of(path).is_none()
            && !(name.ends_with(".bpl") && crate::sourceloc::kernel_origins(path, text).is_some())
    }

    /// The job of `name`, with `text` as its newest text.
    fn job(&mut self, name: &str, text: String) -> Job {
        let known = self.jobs.get(name).copied();
        let file = self.db.put_text(known.map(|job| job.file(&self.db)), name, text);
        *self
            .jobs
            .entry(name.to_string())
            .or_insert_with(|| Job::new(&self.db, file, self.flags.clone(), warm::store()))
    }

    /// Verifies `text` as the file `name`, re-verifying only the units whose slice changed, on
    /// `--jobs` threads (each with its handle on the database). Before each unit, `cancelled`
    /// is asked whether the result is still wanted (`None`: it was not; the units verified so
    /// far are kept).
    pub fn verify(&mut self, name: &str, text: String, cancelled: &(dyn Fn() -> bool + Sync)) -> Option<Outcome> {
        if !self.incremental(name, &text) {
            let report = crate::pipeline::verify_source(ivl::diag::SourceFile::new(name, text), &self.flags.cfg);
            return Some(Outcome { report, verified_units: 1, units: 1 });
        }
        let _ = self.db.take_executions();
        let job = self.job(name, text);
        let ids: Vec<salsa::Id> = units(&self.db, job).iter().map(|u| u.as_id()).collect();
        let threads = self.flags.cfg.driver.engine.jobs.clamp(1, ids.len().max(1));
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                let (db, ids, next) = (self.db.clone(), &ids, &next);
                let worker = move || {
                    while let Some(&id) = ids.get(next.fetch_add(1, Ordering::Relaxed)) {
                        if cancelled() {
                            return;
                        }
                        let _ = unit_result(&db, Unit::from_id(id));
                    }
                };
                // Large stacks: the passes recurse over deeply nested expressions.
                let spawned = std::thread::Builder::new().stack_size(WORKER_STACK).spawn_scoped(scope, worker);
                spawned.expect("starting a verification thread");
            }
        });
        if cancelled() {
            return None;
        }
        let report = copy_report(&file_report(&self.db, job).0);
        self.executions = self.db.take_executions();
        let verified_units = self.executions.iter().filter(|q| q.starts_with("unit_verdict(")).count();
        Some(Outcome { report, verified_units, units: ids.len() })
    }
}

#[cfg(test)]
mod tests;
