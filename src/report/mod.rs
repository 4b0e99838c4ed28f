//! What kivl tells its users: per-file verdicts, rendered for people (ariadne), as the JSON
//! of docs/kbpl.md §8, as SARIF 2.1.0 ([`crate::sarif`]) or JUnit XML ([`crate::junit`]), and
//! the exit status that summarises a run.

use ivl::diag::{Diagnostic, ErrorKind, JsonError, SourceFile};
use serde::{Deserialize, Serialize};

/// The verdict of one file (docs/kbpl.md §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Verified,
    Errors,
    Inconclusive,
    Invalid,
    /// `--loop-unwind N` / `--findbugs` found no error within N loop iterations: not a proof.
    Bounded,
}

impl Verdict {
    /// The verdict's name, as in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Errors => "errors",
            Verdict::Invalid => "invalid",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Bounded => "bounded",
        }
    }

    /// Exit status of docs/kbpl.md §8: 0 verified, 1 errors, 2 invalid, 3 inconclusive or
    /// bounded.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Verified => 0,
            Verdict::Errors => 1,
            Verdict::Invalid => 2,
            Verdict::Inconclusive | Verdict::Bounded => 3,
        }
    }
}

/// Everything kivl found out about one file.
pub struct FileReport {
    pub source: SourceFile,
    pub verdict: Verdict,
    pub errors: Vec<Diagnostic>,
    /// Extra lines for the human output (Houdini assignment, statistics).
    pub info: Vec<String>,
    /// Extra JSON fields (statistics, per-implementation results).
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// Per implementation (in the order of `extra["implementations"]`), the indices of its
    /// errors in `errors`; empty when unknown (JUnit then reports the file's errors together).
    pub impl_errors: Vec<std::ops::Range<usize>>,
}

impl FileReport {
    pub fn new(source: SourceFile, verdict: Verdict, errors: Vec<Diagnostic>) -> FileReport {
        FileReport { source, verdict, errors, info: Vec::new(), extra: serde_json::Map::new(), impl_errors: Vec::new() }
    }

    /// A file that could not be read or parsed: the diagnostics decide the verdict. A time
    /// limit that ran out first (the front end's tools stopped at `--timeout`) is no fault of
    /// the file: inconclusive.
    pub fn invalid(source: SourceFile, errors: Vec<Diagnostic>) -> FileReport {
        let verdict =
            if errors.iter().any(|d| d.kind == ErrorKind::Timeout) { Verdict::Inconclusive } else { Verdict::Invalid };
        FileReport::new(source, verdict, errors)
    }
}

#[derive(Serialize)]
struct JsonFile<'a> {
    file: &'a str,
    verdict: Verdict,
    errors: Vec<serde_json::Value>,
    #[serde(flatten)]
    extra: &'a serde_json::Map<String, serde_json::Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    /// SARIF 2.1.0 (GitHub code scanning, editors).
    Sarif,
    /// JUnit XML (CI test reports).
    Junit,
}

/// How a run's reports are printed: the format and, for people, how much.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub format: Format,
    /// Keep the counterexample's execution trace of internal block names.
    pub verbose: bool,
    /// Only the closing line.
    pub silent: bool,
}

impl From<Format> for Style {
    fn from(format: Format) -> Style {
        Style { format, verbose: false, silent: false }
    }
}

/// What a run adds to its reports: `--time`'s lines and object, the whole run's time, the
/// files `--stop-at-first-error` left out.
#[derive(Default)]
pub struct RunExtras {
    pub time_lines: Vec<String>,
    pub time_json: Option<serde_json::Value>,
    pub total_ms: Option<u64>,
    pub skipped: Vec<String>,
}

/// The exit status of a run over several files: the worst outcome wins, in the order
/// internal error > invalid > errors > inconclusive > verified.
pub fn exit_code(reports: &[FileReport]) -> i32 {
    let rank = |v: Verdict| match v {
        Verdict::Verified => 0,
        Verdict::Bounded => 1,
        Verdict::Inconclusive => 2,
        Verdict::Errors => 3,
        Verdict::Invalid => 4,
    };
    reports.iter().map(|r| r.verdict).max_by_key(|v| rank(*v)).map_or(0, Verdict::exit_code)
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
    /// Implementations without errors under `--loop-unwind N` (not verified).
    pub bounded: usize,
    /// Implementations `--stop-at-first-error` left out (after an error in their file).
    pub skipped: usize,
    /// The run's `--loop-unwind N`, for the closing line.
    #[serde(skip)]
    pub loop_unwind: Option<u64>,
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
            bounded: self.bounded + o.bounded,
            skipped: self.skipped + o.skipped,
            loop_unwind: self.loop_unwind.or(o.loop_unwind),
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
    let bounded = r.extra.get("bounded").and_then(|v| v.as_u64()).unwrap_or(0) as usize;
    let loop_unwind = r.extra.get("loop_unwind").and_then(|v| v.as_u64());
    let skipped = r.extra.get("skipped_implementations").and_then(|v| v.as_array()).map_or(0, Vec::len);
    let errors = r.errors.len() - inconclusive;
    Counts { verified, errors, inconclusive, invalid: 0, bounded, skipped, loop_unwind, kernels, termination_checked }
}

/// An error's JSON object: docs/kbpl.md §8's fields, plus, for kernel errors, the counterexample
/// (`threads`, `index`, `array`, `race_kind`, `params`, sizes) and the outcome of `--replay`
/// (`replay`: `confirmed` | `possible`, `replay_run`).
pub fn error_json(d: &Diagnostic, source: &SourceFile) -> serde_json::Value {
    let json: JsonError = d.to_json(source);
    let mut v = serde_json::to_value(json).expect("JSON of plain data");
    if let Some(obj) = v.as_object_mut() {
        if let Some(cx) = gpu_passes::two_thread::counterexample::counterexample(d) {
            obj.extend(cx.json());
        }
        obj.extend(gpu_passes::replay::replay_json(d));
    }
    v
}

/// `kivl verify --replay`: runs every error of a kernel file concretely and marks it
/// `confirmed` or `possible` (see `gpu_passes::replay`). `program` is the checked program.
pub fn replay(r: &mut FileReport, program: &ivl::ast::Program, kernel: &gpu_passes::two_thread::KernelOptions) {
    // A `.bpl` reported on its kernel (`located_from`): the kernel file is not the program.
    if r.verdict != Verdict::Errors || r.extra.contains_key("located_from") {
        return;
    }
    if !gpu_passes::two_thread::is_kernel_program(program) {
        return;
    }
    let opts = gpu_passes::replay::ReplayOptions {
        local_size: kernel.local_size.clone(),
        num_groups: kernel.num_groups.clone(),
        benign_tolerance: kernel.benign_tolerance,
        ..Default::default()
    };
    gpu_passes::replay::replay_errors(program, &r.source, &mut r.errors, &opts);
    let replayed = |d: &Diagnostic, s: &str| d.values.iter().any(|(k, v)| k == "replay" && v == s);
    // A race or divergence the concrete run showed is no longer "possible".
    for d in r.errors.iter_mut().filter(|d| replayed(d, "confirmed")) {
        if let Some(rest) = d.message.strip_prefix("possible ") {
            d.message = format!("confirmed {rest}");
        }
    }
    let count = |s: &str| r.errors.iter().filter(|d| replayed(d, s)).count();
    let (confirmed, possible) = (count("confirmed"), count("possible"));
    r.info.push(format!("replay: {confirmed} confirmed, {possible} possible"));
    r.extra.insert("replay".into(), serde_json::json!({ "confirmed": confirmed, "possible": possible }));
}

/// Prints the reports; `summary` adds Boogie's closing line (`verify`). A closed stdout (`kivl
/// ... | head`) ends the output quietly.
pub fn print(reports: &[FileReport], style: impl Into<Style>, summary: Option<Counts>) {
    print_run(reports, style.into(), summary, &RunExtras::default());
}

/// [`print`] with what the run adds ([`RunExtras`]).
pub fn print_run(reports: &[FileReport], style: Style, summary: Option<Counts>, run: &RunExtras) {
    use std::io::Write;
    crate::progress::clear();
    let out = match style.format {
        Format::Json => json_text(reports, summary, run),
        Format::Sarif => crate::sarif::sarif_text(reports, &run.skipped),
        Format::Junit => crate::junit::junit_text(reports, run),
        Format::Human => human_text(reports, style, summary, run),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush());
}

/// The version of the JSON output's shape (docs/kbpl.md §8.4): the major number changes only
/// when a field changes its meaning or goes; fields are added under a new minor number.
pub const JSON_SCHEMA_VERSION: &str = "1.3";

/// The JSON of docs/kbpl.md §8.4.
fn json_text(reports: &[FileReport], summary: Option<Counts>, run: &RunExtras) -> String {
    let files: Vec<JsonFile> = reports
        .iter()
        .map(|r| JsonFile {
            file: &r.source.name,
            verdict: r.verdict,
            errors: r.errors.iter().map(|d| error_json(d, &r.source)).collect(),
            extra: &r.extra,
        })
        .collect();
    // `solver_checks`: the solver calls this run made (0 when `--cache` answered).
    let mut json = serde_json::json!({
        "schema_version": JSON_SCHEMA_VERSION,
        "tool": { "name": "kivl", "version": env!("CARGO_PKG_VERSION") },
        "files": files,
        "solver_checks": vcgen::solver::checks(),
        "totals": totals(reports, run.skipped.len()),
    });
    if let Some(c) = summary {
        // The closing line's counts, for programs.
        json["counts"] = serde_json::to_value(c).expect("JSON of plain data");
    }
    if let Some(ms) = run.total_ms {
        json["time_ms"] = ms.into();
    }
    if let Some(t) = &run.time_json {
        json["time"] = t.clone();
    }
    if !run.skipped.is_empty() {
        json["skipped"] = run.skipped.clone().into();
    }
    let mut out = serde_json::to_string_pretty(&json).expect("JSON of plain data");
    out.push('\n');
    out
}

/// The run's totals over files: how many files had each verdict, errors by kind (inconclusive
/// checks are `timeout`s), and the files left out by `--stop-at-first-error`.
fn totals(reports: &[FileReport], skipped: usize) -> serde_json::Value {
    let files = |v: Verdict| reports.iter().filter(|r| r.verdict == v).count();
    let mut by_kind = std::collections::BTreeMap::<&str, usize>::new();
    for d in reports.iter().flat_map(|r| &r.errors) {
        *by_kind.entry(d.kind.as_str()).or_default() += 1;
    }
    let unsupported = reports.iter().filter(|r| r.errors.iter().any(|d| d.kind == ErrorKind::Unsupported)).count();
    serde_json::json!({
        "files": reports.len() + skipped,
        "verified": files(Verdict::Verified),
        "with_errors": files(Verdict::Errors),
        "inconclusive": files(Verdict::Inconclusive),
        "invalid": files(Verdict::Invalid),
        "bounded": files(Verdict::Bounded),
        "unsupported": unsupported,
        "skipped": skipped,
        "errors": by_kind,
    })
}

/// The human output: each error (without its execution trace unless `verbose`), the extra
/// lines, `--time`'s lines and the closing line; with `silent`, the closing line alone.
fn human_text(reports: &[FileReport], style: Style, summary: Option<Counts>, run: &RunExtras) -> String {
    let mut out = String::new();
    if !style.silent {
        let color = std::io::IsTerminal::is_terminal(&std::io::stdout());
        for r in reports {
            for d in &r.errors {
                out.push_str(&shown(d, style.verbose).render(&r.source, color));
            }
            for line in &r.info {
                out.push_str(line);
                out.push('\n');
            }
        }
        if !run.skipped.is_empty() {
            let n = run.skipped.len();
            out.push_str(&format!(
                "stopped at the first error (--stop-at-first-error): {n} file{} not verified: {}\n",
                if n == 1 { "" } else { "s" },
                run.skipped.join(", ")
            ));
        }
        for line in &run.time_lines {
            out.push_str(line);
            out.push('\n');
        }
    }
    if let Some(c) = summary {
        out.push_str(&closing_line(c));
    }
    out
}

/// A diagnostic as the human output shows it: the execution trace of internal block names
/// (`execution trace: anon0 -> anon1_Then -> …`, kilobytes on GPUVerify's files) only with
/// `--verbose`.
fn shown(d: &Diagnostic, verbose: bool) -> std::borrow::Cow<'_, Diagnostic> {
    if verbose || !d.notes.iter().any(|n| is_trace(n)) {
        return std::borrow::Cow::Borrowed(d);
    }
    let mut d = d.clone();
    d.notes.retain(|n| !is_trace(n));
    std::borrow::Cow::Owned(d)
}

/// The note `vcgen::report` adds with a counterexample's path through the blocks.
pub fn is_trace(note: &str) -> bool {
    note.starts_with("execution trace:")
}

/// Boogie's closing line, with its singular for one error; like Boogie's "time outs",
/// inconclusive checks are counted apart, and so are invalid files, each only when there are
/// some.
fn closing_line(c: Counts) -> String {
    let noun = if c.errors == 1 { "error" } else { "errors" };
    let mut out = format!("kivl finished with {} verified, {} {noun}", c.verified, c.errors);
    let skipped = (c.skipped, "not verified (--stop-at-first-error)");
    for (n, what) in [(c.inconclusive, "inconclusive"), (c.invalid, "invalid"), skipped] {
        if n > 0 {
            out.push_str(&format!(", {n} {what}"));
        }
    }
    if let (n, Some(depth)) = (c.bounded, c.loop_unwind) {
        if n > 0 {
            out.push_str(&format!(", {n} bounded: {}", crate::verdicts::bounded_wording(depth)));
        }
    }
    // Race freedom means something only for kernels that terminate (seed 004).
    if c.termination_checked {
        out.push_str("; termination checked");
    } else if c.kernels > 0 {
        out.push_str("; termination not checked (--termination)");
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::Verdict;

    #[test]
    fn a_verdict_s_name_is_its_json() {
        for v in [Verdict::Verified, Verdict::Errors, Verdict::Invalid, Verdict::Inconclusive, Verdict::Bounded] {
            assert_eq!(serde_json::to_value(v).unwrap(), v.name());
        }
    }
}
