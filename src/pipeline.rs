//! What `kivl verify` and `kivl transform` do with a file, end to end:
//!
//! ```text
//! source ─ front end (front.rs) ─ driver (gpu_passes::driver: the paths and their stages) ─ report (verdicts.rs)
//! ```
//!
//! The front end runs once per file; `--replay` runs on the program it made.

use crate::front;
use crate::report::FileReport;
use crate::KernelArgs;
use gpu_passes::driver::{self, Stage};
use gpu_passes::two_thread::{Abstraction, KernelOptions};
use ivl::diag::SourceFile;
use std::path::Path;

/// Everything a `verify` run is configured with (the cache keys on its `Debug` form).
#[derive(Clone, Debug)]
pub struct VerifyConfig {
    pub driver: driver::Config,
    pub frontend: frontend::Options,
    /// Print the final Houdini assignment.
    pub print_assignment: bool,
    /// Run every error of a kernel concretely (`--replay`).
    pub replay: bool,
    /// `--timeout`: the wall-clock time a file gets in all ([`VerifyConfig::starting_now`]).
    pub time_limit: Option<std::time::Duration>,
}

impl VerifyConfig {
    /// This configuration for a file's run starting now: with `time_limit`, the front end and
    /// the engine get the deadline it sets (`ivl::deadline`).
    pub fn starting_now(&self) -> std::borrow::Cow<'_, VerifyConfig> {
        let Some(limit) = self.time_limit else { return std::borrow::Cow::Borrowed(self) };
        let deadline = Some(ivl::deadline::Deadline::for_run(limit));
        let mut cfg = self.clone();
        cfg.frontend.deadline = deadline;
        cfg.driver.engine.deadline = deadline;
        std::borrow::Cow::Owned(cfg)
    }
}

pub fn verify_file(path: &Path, cfg: &VerifyConfig) -> FileReport {
    match front::read_source(path) {
        Ok(source) => verify_source(source, cfg),
        Err(r) => r,
    }
}

/// Verifies a source text (a file's, or an editor's buffer in `kivl lsp`).
pub fn verify_source(source: SourceFile, cfg: &VerifyConfig) -> FileReport {
    let cfg = &*cfg.starting_now();
    let front::Checked { mut program, times } = match front::checked(&source, &cfg.frontend) {
        Ok(c) => c,
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
    crate::progress::stage(crate::progress::Stage::Passes);
    let verdicts = driver::verify(&program, &cfg.driver);
    let mut report =
        crate::verdicts::file_report(source, verdicts, cfg.print_assignment, cfg.driver.engine.loop_unwind);
    if let Some(name) = bpl_name {
        report.extra.insert("located_from".into(), name.into());
    }
    if let Some((clang, translate)) = times {
        report.extra.insert("frontend".into(), serde_json::json!({ "clang_s": clang, "translate_s": translate }));
    }
    if cfg.replay {
        crate::progress::stage(crate::progress::Stage::Replay);
        crate::verdicts::replay(&mut report, &program, &cfg.driver.kernel);
    }
    report
}

/// The kernel options of the command line, for the GPU passes.
pub fn kernel_options(k: &KernelArgs) -> KernelOptions {
    KernelOptions {
        local_size: k.local_size.clone(),
        num_groups: k.num_groups.clone(),
        benign_tolerance: !k.no_benign_tolerance,
        only_intra_group: k.only_intra_group,
        only_divergence: k.only_divergence,
        only_log: k.gpuverify.only_log,
        abstraction: match k.abstraction {
            None => Abstraction::Refined,
            Some(crate::AbstractionArg::Adversarial) => Abstraction::Adversarial,
            Some(crate::AbstractionArg::Equality) => Abstraction::Equality,
        },
        asymmetric_asserts: k.asymmetric_asserts,
        warp_sync: k.warp_sync,
    }
}

/// `kivl transform --emit STAGE`: the program after `stage`, printed; the front end's stages
/// here, the others by the driver.
pub fn transform_file(path: &Path, stage: Stage, cfg: &VerifyConfig, threads: usize) -> Result<String, FileReport> {
    let source = front::read_source(path)?;
    let fail = |source: SourceFile, diags| FileReport::invalid(source, diags);
    if matches!(stage, Stage::Kbpl | Stage::Parsed) {
        let text = match frontend::Language::of(path) {
            Some(lang) => match front::translate_kernel(&source, lang, &cfg.frontend) {
                Ok(tr) if stage == Stage::Kbpl => return Ok(tr.kbpl),
                Ok(tr) => tr.kbpl,
                Err(d) => return Err(fail(source, d)),
            },
            None => source.text.clone(),
        };
        let (program, diags) = ivl::parser::parse_program(&text);
        return if diags.is_empty() { Ok(ivl::printer::print_program(&program)) } else { Err(fail(source, diags)) };
    }
    match front::checked_program(&source, &cfg.frontend) {
        Ok(program) => match driver::emit(&program, stage, &cfg.driver, threads) {
            Ok(text) => Ok(relocate_related_spans(&text, &source)),
            Err(d) => Err(fail(source, d)),
        },
        Err(d) => Err(fail(source, d)),
    }
}

/// The emitted text with every `{:related_span START, END}` (offsets into `source`, meaningless
/// in the emitted text, where they would point at the prelude) replaced by
/// `{:related_source "FILE:LINE:COLUMN"}`, which a report of the emitted program shows as a note
/// (`vcgen::report::RELATED_SOURCE`).
fn relocate_related_spans(text: &str, source: &SourceFile) -> String {
    const OPEN: &str = "{:related_span ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        let (before, after) = rest.split_at(i);
        out.push_str(before);
        let args = &after[OPEN.len()..];
        let close = args.find('}').unwrap_or(args.len());
        match args[..close].split(',').next().and_then(|a| a.trim().parse::<u32>().ok()) {
            Some(start) => {
                let (line, col) = source.line_col(start);
                let attr = vcgen::report::RELATED_SOURCE;
                out.push_str(&format!("{{:{attr} \"{}:{line}:{col}\"}}", source.name));
                rest = &args[(close + 1).min(args.len())..];
            }
            None => {
                out.push_str(OPEN);
                rest = args;
            }
        }
    }
    out.push_str(rest);
    out
}
