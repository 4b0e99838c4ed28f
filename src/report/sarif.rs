//! `--format sarif`: the reports as one SARIF 2.1.0 log (OASIS's Static Analysis Results
//! Interchange Format), which GitHub code scanning and editors show inline.
//!
//! One run; its tool's driver is kivl with one rule per error kind of docs/kbpl.md §8.4 (the
//! rule's id is the JSON `kind`). Each error is a result: its level (`error` for what kivl
//! found wrong or could not read, `warning` for an inconclusive check), its message, its
//! primary location as the physical location (1-based line and column of the file as named on
//! the command line, a relative URI), and its other locations (the other access of a race,
//! the violated `requires`) as related locations with their labels. The counterexample and the
//! other notes go in the result's `properties`, as do the kernel fields of the JSON.

use super::model::{error_json, FileReport};
use ivl::diag::{Diagnostic, ErrorKind};
use serde_json::{json, Value};
use vcgen::engine::SKIPPED_AT_FIRST_ERROR;

/// Every error kind, in the order of docs/kbpl.md §8.4's table.
const KINDS: [ErrorKind; 14] = [
    ErrorKind::Race,
    ErrorKind::Divergence,
    ErrorKind::Assertion,
    ErrorKind::Precondition,
    ErrorKind::Postcondition,
    ErrorKind::InvariantEntry,
    ErrorKind::InvariantMaintained,
    ErrorKind::BarrierInvariant,
    ErrorKind::Termination,
    ErrorKind::Timeout,
    ErrorKind::Syntax,
    ErrorKind::Type,
    ErrorKind::Unsupported,
    ErrorKind::Io,
];

/// A rule's short description (docs/kbpl.md §8.4); the match is exhaustive, so a new kind
/// needs one.
fn describe(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Race => {
            "a data race: two threads access the same location, one of them writing, with no barrier in between"
        }
        ErrorKind::Divergence => "barrier divergence: not every thread of a group reaches this barrier",
        ErrorKind::Assertion => "an assert can fail",
        ErrorKind::Precondition => "a requires can fail at a call",
        ErrorKind::Postcondition => "an ensures can fail at an exit",
        ErrorKind::InvariantEntry => "a loop invariant can fail on entry",
        ErrorKind::InvariantMaintained => "a loop invariant can fail after an iteration",
        ErrorKind::BarrierInvariant => "a barrier invariant can fail for a thread reaching the barrier",
        ErrorKind::Termination => "a loop not proven terminating (--termination)",
        ErrorKind::Timeout => "a check hit --timeout or the solver gave up (inconclusive)",
        ErrorKind::Syntax => "a lexical or syntax error",
        ErrorKind::Type => "a name resolution or type error, or a GPU rule broken",
        ErrorKind::Unsupported => "valid input kivl does not handle",
        ErrorKind::Io => "the file cannot be read",
    }
}

/// SARIF's level for a kind: inconclusive checks are warnings, everything else an error.
fn level(kind: ErrorKind) -> &'static str {
    if kind == ErrorKind::Timeout {
        "warning"
    } else {
        "error"
    }
}

/// The SARIF log of the reports, as text; `skipped`: the files `--stop-at-first-error` left out.
pub fn sarif_text(reports: &[FileReport], skipped: &[String]) -> String {
    let mut out = serde_json::to_string_pretty(&sarif_log(reports, skipped)).expect("JSON of plain data");
    out.push('\n');
    out
}

/// The SARIF log of the reports; `skipped`: the files `--stop-at-first-error` left out.
pub fn sarif_log(reports: &[FileReport], skipped: &[String]) -> Value {
    let rules: Vec<Value> = KINDS
        .iter()
        .map(|k| json!({ "id": k.as_str(), "shortDescription": { "text": describe(*k) }, "defaultConfiguration": { "level": level(*k) } }))
        .collect();
    let results: Vec<Value> = reports.iter().flat_map(|r| r.errors.iter().map(move |d| result(d, r))).collect();
    let mut log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "kivl",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            } },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let notes = not_verified(reports, skipped);
    if !notes.is_empty() {
        log["runs"][0]["invocations"] = json!([{ "executionSuccessful": true, "toolExecutionNotifications": notes }]);
    }
    log
}

/// What `--stop-at-first-error` left out, as SARIF notifications of level `note` (no results:
/// nothing was found there, nothing proven either): one per implementation not verified, and
/// one per file not verified, each with the file as its location.
fn not_verified(reports: &[FileReport], skipped: &[String]) -> Vec<Value> {
    let note = |file: &str, what: String| {
        json!({
            "level": "note",
            "message": { "text": format!("{what}: {SKIPPED_AT_FIRST_ERROR}") },
            "locations": [{ "physicalLocation": { "artifactLocation": { "uri": artifact_uri(file) } } }],
        })
    };
    let mut out = Vec::new();
    for r in reports {
        let names = r.extra.get("skipped_implementations").and_then(|v| v.as_array()).cloned().unwrap_or_default();
        out.extend(names.iter().filter_map(|n| n.as_str()).map(|n| note(&r.source.name, format!("`{n}`"))));
    }
    out.extend(skipped.iter().map(|f| note(f, format!("file {f}"))));
    out
}

/// One error as a SARIF result.
fn result(d: &Diagnostic, r: &FileReport) -> Value {
    let rule_index = KINDS.iter().position(|k| *k == d.kind).expect("every kind has a rule");
    let mut error = error_json(d, &r.source);
    let uri = artifact_uri(&r.source.name);
    let locations: Vec<Value> = error["locations"].as_array().cloned().unwrap_or_default();
    let physical = |l: &Value, id: usize| {
        json!({
            "id": id,
            "physicalLocation": {
                "artifactLocation": { "uri": uri },
                "region": { "startLine": l["line"], "startColumn": l["column"] },
            },
            "message": { "text": l["label"].as_str().filter(|s| !s.is_empty()).unwrap_or(d.kind.as_str()) },
        })
    };
    let mut v = json!({
        "ruleId": d.kind.as_str(),
        "ruleIndex": rule_index,
        "level": level(d.kind),
        "message": { "text": d.message },
    });
    if let Some(first) = locations.first() {
        v["locations"] = json!([physical(first, 0)]);
    }
    if locations.len() > 1 {
        v["relatedLocations"] = locations[1..].iter().enumerate().map(|(i, l)| physical(l, i + 1)).collect();
    }
    // The JSON's other fields (notes, threads, array, index, replay …) as properties.
    if let Some(obj) = error.as_object_mut() {
        for k in ["kind", "message", "locations"] {
            obj.remove(k);
        }
        if !obj.is_empty() {
            v["properties"] = Value::Object(obj.clone());
        }
    }
    v
}

/// A file name as a relative URI reference: path separators kept, other bytes outside RFC
/// 3986's unreserved set percent-encoded.
fn artifact_uri(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_become_uri_references() {
        assert_eq!(artifact_uri("dir/a b#1.cl"), "dir/a%20b%231.cl");
        assert_eq!(artifact_uri("k.kbpl"), "k.kbpl");
    }

    #[test]
    fn every_kind_has_one_rule_named_after_it() {
        let ids: std::collections::BTreeSet<_> = KINDS.iter().map(|k| k.as_str()).collect();
        assert_eq!(ids.len(), KINDS.len());
        assert_eq!(level(ErrorKind::Timeout), "warning");
        assert_eq!(level(ErrorKind::Race), "error");
    }
}
