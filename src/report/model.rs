//! The report model: what kivl found out about each file ([`FileReport`], its [`Verdict`]),
//! what a run adds ([`RunExtras`]), the counts of the closing line and the exit status, and
//! the pieces that several renderers share (an error's JSON object, which notes are traces,
//! the wording of a bounded result).
//!
//! Separate from the renderers so that they all stand on it, and it on none of them.

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

/// The note `vcgen::report` adds with a counterexample's path through the blocks.
pub fn is_trace(note: &str) -> bool {
    note.starts_with("execution trace:")
}

/// What a run with `--loop-unwind N` that found no error says: it proves nothing.
pub fn bounded_wording(depth: u64) -> String {
    format!("no errors found within {depth} loop iterations (--loop-unwind {depth}): not a proof")
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
