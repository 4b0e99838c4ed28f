//! The one place where kivl's pipeline is assembled.
//!
//! ```text
//! source ─ parse ─ resolve/type-check ─ prelude ─ modifies inference ─┬─ (plain Boogie) ─ desugar ─ passify ─ WP ─ Z3
//!                  (salsa database)                                   └─ (kernel) ─ GPU passes ─ two-thread program ─┘
//! ```
//!
//! Every stage is a function from program to program; `kivl transform --emit STAGE` prints the
//! output of any of them as `.kbpl`.

use crate::report::{FileReport, Verdict};
use crate::KernelArgs;
use ivl::ast::Program;
use ivl::diag::{Diagnostic, ErrorKind, SourceFile};
use std::path::Path;
use std::sync::Arc;

/// The stages `kivl transform --emit` can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// The `.kbpl` generated from an OpenCL (`.cl`) or CUDA (`.cu`) kernel; for other files,
    /// the program as parsed.
    Kbpl,
    /// The program as parsed (a round trip through the printer).
    Parsed,
    /// After resolution and type checking, with the GPU prelude added and modifies inferred.
    Checked,
    /// Calls desugared or inlined, loops cut: the acyclic block form the VC is built from.
    Desugared,
    /// Single-assignment form.
    Passified,
    /// The verification conditions as SMT-LIB (not .kbpl).
    Vc,
    /// Kernels predicated (seed 000 §4.1, Tables 1 and 2).
    Predicated,
    /// The lock-step program for `--threads N` threads (seed 000 §4.2, Table 3).
    Lockstep,
    /// The lock-step program with the race checks of Definition 4.1, the loop invariants and
    /// the Houdini candidates: what `verify --lockstep N` verifies.
    LockstepChecked,
    /// Kernels as instrumented two-thread programs (seed 001 ch. 4).
    TwoThread,
    /// Kernels with their candidate invariants (seed 001 §4.3).
    Candidates,
    /// One thread with shared memory abstracted and a ranking check per loop: what
    /// `verify --termination` proves (seed 004 §4).
    Termination,
}

#[derive(Debug)]
pub struct VerifyConfig {
    pub houdini: bool,
    pub print_assignment: bool,
    pub infer_info: bool,
    /// Time limit per check in seconds; 0 is no limit.
    pub timeout_secs: u64,
    pub jobs: usize,
    pub error_limit: usize,
    /// Houdini: split one implementation's assertions across the solver threads.
    pub split_vc: bool,
    /// Houdini: race the solver threads on each implementation's whole VC.
    pub portfolio: bool,
    /// Verify on the lock-step program of exactly this many threads (seed 000), not the
    /// two-thread abstraction.
    pub lockstep: Option<usize>,
    /// Also prove that every thread terminates (seed 004).
    pub termination: bool,
    pub kernel: KernelArgs,
}

/// Reads a file; an unreadable file is an invalid input with a diagnostic: an I/O error (no
/// location) when it cannot be read, a syntax error at the first byte that is not UTF-8 when it
/// cannot be decoded. The report then carries the lossy decoding of the file (the bad bytes
/// become U+FFFD), and the span is taken in that text — at the replacement character — not
/// in the bytes, so that it falls on character boundaries of the text it is shown with.
pub(crate) fn read_source(path: &Path) -> Result<SourceFile, FileReport> {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(SourceFile::new(name, text)),
            Err(e) => {
                // The text before the first bad byte is decoded as it is, so the byte offset
                // of the bad byte is the offset of its replacement character.
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes()[at];
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let span = ivl::ast::Span::new(at, at + char::REPLACEMENT_CHARACTER.len_utf8());
                let d = Diagnostic::syntax(format!("the file is not valid UTF-8: byte 0x{byte:02X}"), span)
                    .with_label(format!("byte 0x{byte:02X} here"))
                    .with_note("kivl reads source files as UTF-8");
                Err(FileReport::invalid(SourceFile::new(name, text), vec![d]))
            }
        },
        Err(e) => {
            let d = Diagnostic::io(&name, e);
            Err(FileReport::invalid(SourceFile::new(name, String::new()), vec![d]))
        }
    }
}

/// Parse, resolve and type-check: the front end, run as queries on the salsa database.
/// When a file has syntax errors, only those are reported: type errors that follow from a
/// declaration that did not parse would only be noise.
fn front_end(source: &SourceFile) -> Result<Program, Vec<Diagnostic>> {
    if let Some(lang) = frontend::Language::of(Path::new(&source.name)) {
        return kernel_front_end(source, lang);
    }
    let db = ivl::db::Database::new();
    let file = db.add_file(source.name.clone(), source.text.clone());
    front_end_diagnostics(&db, file)?;
    let program = Arc::clone(ivl::db::file_program(&db, file));
    // Once the database is gone the program has one owner: no copy of the syntax tree.
    drop(db);
    Ok(Arc::try_unwrap(program).unwrap_or_else(|shared| (*shared).clone()))
}

/// The options of the OpenCL/CUDA front end (`-D`, `-I`), set once by the command line.
static FRONTEND_OPTIONS: std::sync::OnceLock<frontend::Options> = std::sync::OnceLock::new();

pub fn set_frontend_options(opts: frontend::Options) {
    let _ = FRONTEND_OPTIONS.set(opts);
}

thread_local! {
    /// Seconds in clang and in the translation of this thread's last `.cl`/`.cu` file, for its
    /// report (`front_end` returns only the program).
    static FRONTEND_TIMES: std::cell::Cell<Option<(f64, f64)>> = const { std::cell::Cell::new(None) };
}

/// A `.cl`/`.cu` file translated to KBPL (the front end's diagnostics point at the kernel).
pub(crate) fn translate_kernel(
    source: &SourceFile,
    lang: frontend::Language,
) -> Result<frontend::Translation, Vec<Diagnostic>> {
    let opts = FRONTEND_OPTIONS.get().cloned().unwrap_or_default();
    let tr = frontend::translate_file(Path::new(&source.name), &source.text, lang, &opts)?;
    FRONTEND_TIMES.with(|t| t.set(Some((tr.clang_secs, tr.translate_secs))));
    Ok(tr)
}

/// The `.kbpl` generated from a kernel is parsed and checked like any file; the program's
/// spans are then moved onto the kernel source, so that every report points at `kernel.cl`.
/// A problem in the generated text is a front-end bug; it is reported at the kernel line the
/// text came from.
fn kernel_front_end(source: &SourceFile, lang: frontend::Language) -> Result<Program, Vec<Diagnostic>> {
    let tr = translate_kernel(source, lang)?;
    let map = frontend::remap::SpanMap::new(&tr, &source.text);
    let db = ivl::db::Database::new();
    let file = db.add_file(format!("{}.kbpl", source.name), tr.kbpl.clone());
    front_end_diagnostics(&db, file).map_err(|ds| {
        ds.into_iter()
            .map(|d| {
                map.map_diagnostic(d)
                    .with_note("in the .kbpl generated from the kernel (`kivl transform --emit kbpl` prints it)")
            })
            .collect::<Vec<_>>()
    })?;
    let mut program = (**ivl::db::file_program(&db, file)).clone();
    frontend::remap::remap_spans(&mut program, &map);
    Ok(program)
}

/// The front end's verdict on a file of the database: `Err` with the diagnostics to show.
fn front_end_diagnostics(db: &ivl::db::Database, file: ivl::db::SourceFile) -> Result<(), Vec<Diagnostic>> {
    let diags = ivl::db::file_diagnostics(db, file);
    if diags.is_empty() {
        return Ok(());
    }
    let syntax: Vec<Diagnostic> = diags.iter().filter(|d| d.kind == ErrorKind::Syntax).cloned().collect();
    Err(if syntax.is_empty() { diags.clone() } else { syntax })
}

/// The program every later stage starts from: checked, with the GPU prelude and inferred
/// modifies clauses.
pub(crate) fn checked_program(source: &SourceFile) -> Result<Program, Vec<Diagnostic>> {
    let program = front_end(source)?;
    let program = ivl::prelude::with_prelude(program);
    Ok(ivl::modifies::infer_modifies(&program))
}

pub fn check_file(path: &Path) -> FileReport {
    let mut source = match read_source(path) {
        Ok(s) => s,
        Err(r) => return r,
    };
    if frontend::Language::of(path).is_some() {
        return match front_end(&source) {
            Ok(_) => FileReport::new(source, Verdict::Verified, Vec::new()),
            Err(diags) => FileReport::invalid(source, diags),
        };
    }
    // The database owns the text while checking and hands it back after (no copy of a
    // file of megabytes).
    let mut db = ivl::db::Database::new();
    let file = db.add_file(source.name.clone(), std::mem::take(&mut source.text));
    let result = front_end_diagnostics(&db, file);
    source.text = db.set_text(file, String::new());
    drop(db);
    match result {
        Ok(()) => FileReport::new(source, Verdict::Verified, Vec::new()),
        Err(diags) => FileReport::invalid(source, diags),
    }
}

/// The counts of Boogie's closing line: implementations verified, errors reported, and checks
/// that ran out of time or gave up (Boogie's "time outs"), which are not errors; and files that
/// kivl could not verify at all (unreadable, syntax or type errors, unsupported constructs),
/// which are neither verified nor in error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub verified: usize,
    pub errors: usize,
    pub inconclusive: usize,
    pub invalid: usize,
    /// Kernels among the valid files, and whether their termination was checked
    /// (`--termination`): the closing line says which.
    #[serde(skip)]
    pub kernels: usize,
    #[serde(skip)]
    pub termination_checked: bool,
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts {
            verified: self.verified + o.verified,
            errors: self.errors + o.errors,
            inconclusive: self.inconclusive + o.inconclusive,
            invalid: self.invalid + o.invalid,
            kernels: self.kernels + o.kernels,
            termination_checked: self.termination_checked || o.termination_checked,
        }
    }
}

/// One file's share of the closing line. An invalid file counts once, as invalid, and for
/// nothing else: what the solver proved of a program kivl does not fully handle is no proof of
/// the file (a kernel whose preconditions contradict `--local-size` verifies vacuously).
pub fn counts(r: &FileReport) -> Counts {
    if r.verdict == Verdict::Invalid {
        return Counts { invalid: 1, ..Counts::default() };
    }
    let verified = r.extra.get("verified").and_then(|v| v.as_u64()).unwrap_or(0) as usize;
    let inconclusive = r.errors.iter().filter(|d| d.kind == ErrorKind::Timeout).count();
    let kernels = usize::from(r.extra.get("kernel").is_some_and(|k| k == true));
    let termination_checked = r.extra.contains_key("termination");
    Counts { verified, errors: r.errors.len() - inconclusive, inconclusive, invalid: 0, kernels, termination_checked }
}

pub fn verify_file(path: &Path, cfg: &VerifyConfig) -> FileReport {
    match read_source(path) {
        Ok(source) => verify_source(source, cfg),
        Err(r) => r,
    }
}

/// Verifies a source text (a file's, or an editor's buffer in `kivl lsp`).
pub fn verify_source(source: SourceFile, cfg: &VerifyConfig) -> FileReport {
    let mut program = match checked_program(&source) {
        Ok(p) => p,
        Err(diags) => return FileReport::invalid(source, diags),
    };
    // GPUVerify's Boogie with its location table: the reports point at the kernel.
    let mut bpl_name = None;
    let located =
        source.name.ends_with(".bpl").then(|| crate::sourceloc::kernel_origins(Path::new(&source.name), &source.text));
    let source = match located.flatten() {
        Some((tr, kernel)) => {
            let map = frontend::remap::SpanMap::new(&tr, &kernel.text);
            frontend::remap::remap_spans(&mut program, &map);
            bpl_name = Some(source.name);
            kernel
        }
        None => source,
    };
    let times = FRONTEND_TIMES.with(|t| t.take());
    let mut report = verify_program(source, &program, cfg);
    if let Some(name) = bpl_name {
        report.extra.insert("located_from".into(), name.into());
    }
    if let Some((clang, translate)) = times {
        report.extra.insert("frontend".into(), serde_json::json!({ "clang_s": clang, "translate_s": translate }));
    }
    if gpu_passes::two_thread::is_kernel_program(&program) && report.verdict != Verdict::Invalid {
        report.extra.insert("kernel".into(), true.into());
    }
    if cfg.termination && report.verdict != Verdict::Invalid {
        add_termination(&mut report, &program, cfg);
    }
    report
}

/// Adds the termination check (seed 004) to a file's report: its errors, an info line, the
/// `termination` JSON field; a procedure whose loops are not all proven is not verified.
fn add_termination(report: &mut FileReport, program: &Program, cfg: &VerifyConfig) {
    let t = gpu_passes::termination::check_termination(program, &kernel_options(&cfg.kernel), &engine_options(cfg));
    let input_error = t.errors.iter().any(|d| d.kind.is_input_error());
    let status = if input_error {
        "invalid"
    } else if t.inconclusive.is_some() {
        "inconclusive"
    } else if t.errors.is_empty() {
        "proven"
    } else {
        "not proven"
    };
    report.info.push(format!("termination: {status}, {} of {} loops proven terminating", t.proven, t.loops));
    report
        .extra
        .insert("termination".into(), serde_json::json!({ "status": status, "loops": t.loops, "proven": t.proven }));
    if let Some(v) = report.extra.get("verified").and_then(|v| v.as_u64()) {
        let verified = (v as usize).saturating_sub(t.unproven.len());
        report.extra.insert("verified".into(), verified.into());
    }
    if let Some(why) = &t.inconclusive {
        report.errors.push(Diagnostic::new(
            ErrorKind::Timeout,
            format!("the termination check was inconclusive: {why}"),
            ivl::ast::Span::DUMMY,
        ));
    }
    report.errors.extend(t.errors);
    report.verdict = if input_error {
        Verdict::Invalid
    } else if report.errors.iter().any(|d| d.kind != ErrorKind::Timeout) {
        Verdict::Errors
    } else if report.errors.is_empty() {
        report.verdict
    } else {
        Verdict::Inconclusive
    };
}

/// The engine's options for a `verify` configuration.
fn engine_options(cfg: &VerifyConfig) -> vcgen::engine::VerifyOptions {
    vcgen::engine::VerifyOptions {
        jobs: cfg.jobs,
        // `--timeout 0` is no limit (Boogie's meaning), not a limit of nothing.
        timeout_secs: Some(cfg.timeout_secs).filter(|&s| s > 0),
        houdini: cfg.houdini,
        print_assignment: cfg.print_assignment,
        error_limit: cfg.error_limit,
        split_vc: cfg.split_vc,
        portfolio: cfg.portfolio,
    }
}

/// Verifies a checked program: lock-step, two-thread kernel or plain Boogie, as configured.
fn verify_program(source: SourceFile, program: &Program, cfg: &VerifyConfig) -> FileReport {
    let opts = engine_options(cfg);
    if let Some(n) = cfg.lockstep {
        let result = gpu_passes::lockstep::verify_lockstep_with(
            program,
            n,
            &opts,
            gpu_passes::lockstep::RaceChecks { benign_tolerance: !cfg.kernel.no_benign_tolerance },
        );
        return engine_report(source, result, cfg.print_assignment);
    }
    if gpu_passes::two_thread::is_kernel_program(program) {
        let kopts = kernel_options(&cfg.kernel);
        if cfg.houdini {
            let (result, info) = gpu_passes::invariants::verify_with_inference(program, &kopts, &opts, cfg.infer_info);
            let mut report = engine_report(source, result, cfg.print_assignment);
            if let Some(mut info) = info {
                info.set_source(&report.source);
                report.info.push(gpu_passes::invariants::report::infer_info_text(&info));
                report.extra.insert("inference".into(), gpu_passes::invariants::report::infer_info_json(&info));
            }
            return report;
        }
        let result = gpu_passes::two_thread::verify_kernel(program, &kopts, &opts);
        return engine_report(source, result, cfg.print_assignment);
    }
    let result = vcgen::engine::verify_program(program, &opts);
    engine_report(source, result, cfg.print_assignment)
}

/// Turns the engine's per-implementation results into a file report.
fn engine_report(source: SourceFile, result: vcgen::engine::ProgramResult, print_assignment: bool) -> FileReport {
    use vcgen::engine::Outcome;
    // Program-level errors (input errors found while encoding) come first: never "verified".
    let mut errors = result.errors.clone();
    let mut verified = 0usize;
    let mut inconclusive = false;
    let mut per_impl = Vec::new();
    for imp in &result.impls {
        let status = match &imp.outcome {
            Outcome::Verified => {
                verified += 1;
                "verified".to_string()
            }
            Outcome::Errors(ds) => {
                errors.extend(ds.iter().cloned());
                "errors".to_string()
            }
            Outcome::Inconclusive(reason) => {
                inconclusive = true;
                let d = Diagnostic::new(
                    ErrorKind::Timeout,
                    format!("verification of `{}` was inconclusive: {reason}", imp.name),
                    imp.span,
                );
                errors.push(d);
                "inconclusive".to_string()
            }
        };
        per_impl.push(serde_json::json!({ "name": imp.name.as_str(), "outcome": status }));
    }
    // Input errors found after the front end (irreducible control flow, a kernel that no
    // thread can run under the given sizes, a construct a pass does not handle) make the file
    // invalid, like a type error: kivl could not decide it.
    let verdict = if errors.iter().any(|d| d.kind.is_input_error()) {
        Verdict::Invalid
    } else if errors.iter().any(|d| d.kind != ErrorKind::Timeout) {
        Verdict::Errors
    } else if inconclusive {
        Verdict::Inconclusive
    } else {
        Verdict::Verified
    };
    let mut report = FileReport::new(source, verdict, errors);
    // As in the closing line ([`counts`]), nothing of an invalid file counts as verified.
    let verified = if verdict == Verdict::Invalid { 0 } else { verified };
    report.extra.insert("verified".into(), verified.into());
    report.extra.insert("implementations".into(), per_impl.into());
    if let Some(h) = &result.houdini {
        report.extra.insert(
            "houdini".into(),
            serde_json::json!({
                "candidates": h.candidates.len(),
                "kept": h.kept,
                "rounds": h.rounds,
                "checks": h.checks,
                "time_s": h.time.as_secs_f64(),
            }),
        );
        report.info.push(format!("houdini: {} candidates, {} kept", h.candidates.len(), h.kept));
        if print_assignment {
            report.info.push(h.format_assignment().trim_end().to_string());
        }
    }
    report
}

/// `p` without its `{:kernel}` attributes: a lock-step program is sequential Boogie, and
/// `kivl verify` on the emitted text must not reduce it to two threads again.
fn plain_boogie(mut p: ivl::ast::Program) -> ivl::ast::Program {
    use ivl::ast::DeclKind;
    for d in &mut p.decls {
        match &mut d.kind {
            DeclKind::Procedure(pr) => pr.attrs.retain(|a| a.name.name != "kernel"),
            DeclKind::Implementation(i) => i.attrs.retain(|a| a.name.name != "kernel"),
            _ => {}
        }
    }
    p
}

/// The kernel options of the command line, for the GPU passes.
fn kernel_options(k: &KernelArgs) -> gpu_passes::two_thread::KernelOptions {
    use gpu_passes::two_thread::{Abstraction, KernelOptions};
    KernelOptions {
        local_size: k.local_size.clone(),
        num_groups: k.num_groups.clone(),
        benign_tolerance: !k.no_benign_tolerance,
        only_intra_group: k.only_intra_group,
        only_divergence: k.only_divergence,
        abstraction: match k.abstraction {
            crate::AbstractionArg::Adversarial => Abstraction::Adversarial,
            crate::AbstractionArg::Equality => Abstraction::Equality,
        },
    }
}

pub fn transform_file(path: &Path, stage: Stage, kernel: &KernelArgs, threads: usize) -> Result<String, FileReport> {
    let source = read_source(path)?;
    let fail = |source: SourceFile, diags| FileReport::invalid(source, diags);
    if let (Stage::Kbpl, Some(lang)) = (stage, frontend::Language::of(path)) {
        return translate_kernel(&source, lang).map(|tr| tr.kbpl).map_err(|d| fail(source, d));
    }
    let text = match stage {
        Stage::Parsed | Stage::Kbpl => {
            let (program, diags) = ivl::parser::parse_program(&source.text);
            if !diags.is_empty() {
                return Err(fail(source, diags));
            }
            ivl::printer::print_program(&program)
        }
        Stage::Checked => match checked_program(&source) {
            Ok(p) => ivl::printer::print_program(&p),
            Err(d) => return Err(fail(source, d)),
        },
        Stage::Termination => match checked_program(&source) {
            Ok(p) => match gpu_passes::termination::termination_program(&p, &kernel_options(kernel)) {
                Ok((t, _)) => ivl::printer::print_program(&t),
                Err(d) => return Err(fail(source, d)),
            },
            Err(d) => return Err(fail(source, d)),
        },
        Stage::Predicated | Stage::Lockstep | Stage::LockstepChecked | Stage::TwoThread | Stage::Candidates => {
            let program = match checked_program(&source) {
                Ok(p) => p,
                Err(d) => return Err(fail(source, d)),
            };
            let out = match stage {
                Stage::Predicated => gpu_passes::predication::predicate_program(&program),
                Stage::Lockstep => gpu_passes::lockstep::lockstep_program(&program, threads),
                Stage::LockstepChecked => gpu_passes::lockstep::checked_lockstep_program(
                    &program,
                    threads,
                    gpu_passes::lockstep::RaceChecks { benign_tolerance: !kernel.no_benign_tolerance },
                )
                .map(|(mut p, vacuity)| {
                    // The vacuity checks (`assert false` under the preconditions) run apart.
                    p.decls.retain(|d| match &d.kind {
                        ivl::ast::DeclKind::Procedure(pr) => !vacuity.iter().any(|(v, _)| *v == pr.name.name),
                        _ => true,
                    });
                    plain_boogie(p)
                }),
                Stage::TwoThread => gpu_passes::two_thread::two_thread_program(&program, &kernel_options(kernel)),
                _ => Ok(gpu_passes::invariants::add_candidates(&program).0),
            };
            match out {
                Ok(p) => ivl::printer::print_program(&p),
                Err(d) => return Err(fail(source, d)),
            }
        }
        Stage::Desugared | Stage::Passified | Stage::Vc => {
            let program = match checked_program(&source) {
                Ok(p) => p,
                Err(d) => return Err(fail(source, d)),
            };
            let emitted = match stage {
                Stage::Desugared => vcgen::desugar::prepare(&program).map(|inputs| {
                    let mut out = program.clone();
                    out.decls.retain(|d| !matches!(d.kind, ivl::ast::DeclKind::Implementation(_)));
                    out.decls.extend(inputs.iter().map(|v| v.imp.to_decl()));
                    ivl::printer::print_program(&out)
                }),
                Stage::Passified => vcgen::engine::emit_stage(&program, vcgen::engine::EmitStage::Passified),
                _ => vcgen::engine::emit_stage(&program, vcgen::engine::EmitStage::Vc),
            };
            match emitted {
                Ok(text) => text,
                Err(d) => return Err(fail(source, d)),
            }
        }
    };
    Ok(text)
}
