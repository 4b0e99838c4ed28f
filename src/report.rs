//! What kivl tells its users: per-file verdicts, rendered for people (ariadne) or as the JSON
//! of docs/kbpl.md §8, and the exit status that summarises a run.

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
}

impl Verdict {
    /// Exit status of docs/kbpl.md §8: 0 verified, 1 errors, 2 invalid, 3 inconclusive.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Verified => 0,
            Verdict::Errors => 1,
            Verdict::Invalid => 2,
            Verdict::Inconclusive => 3,
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
}

impl FileReport {
    pub fn new(source: SourceFile, verdict: Verdict, errors: Vec<Diagnostic>) -> FileReport {
        FileReport { source, verdict, errors, info: Vec::new(), extra: serde_json::Map::new() }
    }

    /// A file that could not be read or parsed: the diagnostics decide the verdict.
    pub fn invalid(source: SourceFile, errors: Vec<Diagnostic>) -> FileReport {
        FileReport::new(source, Verdict::Invalid, errors)
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
}

/// The exit status of a run over several files: the worst outcome wins, in the order
/// internal error > invalid > errors > inconclusive > verified.
pub fn exit_code(reports: &[FileReport]) -> i32 {
    let rank = |v: Verdict| match v {
        Verdict::Verified => 0,
        Verdict::Inconclusive => 1,
        Verdict::Errors => 2,
        Verdict::Invalid => 3,
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

/// An error's JSON object: docs/kbpl.md §8's fields, plus, for kernel errors, the counterexample
/// (`threads`, `index`, `array`, `race_kind`, `params`, sizes) and the outcome of `--replay`
/// (`replay`: `confirmed` | `possible`, `replay_run`).
fn error_json(d: &Diagnostic, source: &SourceFile) -> serde_json::Value {
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
    let count = |s: &str| r.errors.iter().filter(|d| d.values.iter().any(|(k, v)| k == "replay" && v == s)).count();
    let (confirmed, possible) = (count("confirmed"), count("possible"));
    r.info.push(format!("replay: {confirmed} confirmed, {possible} possible"));
    r.extra.insert("replay".into(), serde_json::json!({ "confirmed": confirmed, "possible": possible }));
}

/// Prints the reports; `summary` adds Boogie's closing line (`verify`). A closed stdout (`kivl
/// ... | head`) ends the output quietly.
pub fn print(reports: &[FileReport], format: Format, summary: Option<Counts>) {
    use std::io::Write;
    let mut out = String::new();
    match format {
        Format::Json => {
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
            let mut json = serde_json::json!({ "files": files, "solver_checks": vcgen::solver::checks() });
            if let Some(c) = summary {
                // The closing line's counts, for programs.
                json["counts"] = serde_json::to_value(c).expect("JSON of plain data");
            }
            out.push_str(&serde_json::to_string_pretty(&json).expect("JSON of plain data"));
            out.push('\n');
        }
        Format::Human => {
            let color = std::io::IsTerminal::is_terminal(&std::io::stdout());
            for r in reports {
                for d in &r.errors {
                    out.push_str(&d.render(&r.source, color));
                }
                for line in &r.info {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            if let Some(c) = summary {
                // Boogie's closing line, with its singular for one error; like Boogie's "time
                // outs", inconclusive checks are counted apart, and so are invalid files, each
                // only when there are some.
                let noun = if c.errors == 1 { "error" } else { "errors" };
                out.push_str(&format!("kivl finished with {} verified, {} {noun}", c.verified, c.errors));
                for (n, what) in [(c.inconclusive, "inconclusive"), (c.invalid, "invalid")] {
                    if n > 0 {
                        out.push_str(&format!(", {n} {what}"));
                    }
                }
                // Race freedom means something only for kernels that terminate (seed 004).
                if c.termination_checked {
                    out.push_str("; termination checked");
                } else if c.kernels > 0 {
                    out.push_str("; termination not checked (--termination)");
                }
                out.push('\n');
            }
        }
    }
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush());
}
