//! `--format json`: the reports as the JSON of docs/kbpl.md §8.4 (files, errors, totals, the
//! closing line's counts, times).
//!
//! A renderer: it reads the report model and nothing else of the run.

use super::model::{error_json, Counts, FileReport, RunExtras, Verdict};
use ivl::diag::ErrorKind;
use serde::Serialize;

#[derive(Serialize)]
struct JsonFile<'a> {
    file: &'a str,
    verdict: Verdict,
    errors: Vec<serde_json::Value>,
    #[serde(flatten)]
    extra: &'a serde_json::Map<String, serde_json::Value>,
}

/// The version of the JSON output's shape (docs/kbpl.md §8.4): the major number changes only
/// when a field changes its meaning or goes; fields are added under a new minor number.
pub const JSON_SCHEMA_VERSION: &str = "1.3";

/// The JSON of docs/kbpl.md §8.4.
pub(super) fn json_text(reports: &[FileReport], summary: Option<Counts>, run: &RunExtras) -> String {
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
