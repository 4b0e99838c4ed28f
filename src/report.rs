//! What kivl tells its users: per-file verdicts, rendered for people (ariadne) or as the JSON
//! of `shared/KBPL.md` §3, and the exit status that summarises a run.

use ivl::diag::{Diagnostic, JsonError, SourceFile};
use serde::Serialize;

/// The verdict of one file (KBPL.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Verified,
    Errors,
    Inconclusive,
    Invalid,
}

impl Verdict {
    /// Exit status of KBPL.md §3: 0 verified, 1 errors, 2 invalid, 3 inconclusive.
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
    errors: Vec<JsonError>,
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

/// Prints the reports; `summary` adds Boogie's closing line (`verify`).
pub fn print(reports: &[FileReport], format: Format, summary: Option<(usize, usize)>) {
    match format {
        Format::Json => {
            let files: Vec<JsonFile> = reports
                .iter()
                .map(|r| JsonFile {
                    file: &r.source.name,
                    verdict: r.verdict,
                    errors: r.errors.iter().map(|d| d.to_json(&r.source)).collect(),
                    extra: &r.extra,
                })
                .collect();
            let json = serde_json::json!({ "files": files });
            println!("{}", serde_json::to_string_pretty(&json).expect("JSON of plain data"));
        }
        Format::Human => {
            let color = std::io::IsTerminal::is_terminal(&std::io::stdout());
            for r in reports {
                for d in &r.errors {
                    print!("{}", d.render(&r.source, color));
                }
                for line in &r.info {
                    println!("{line}");
                }
            }
            if let Some((verified, errors)) = summary {
                println!("kivl finished with {verified} verified, {errors} errors");
            }
        }
    }
}
