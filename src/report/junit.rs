//! `--format junit`: the reports as JUnit XML, the test-report format CI systems read (the
//! Ant/Surefire schema as Jenkins, GitLab and GitHub test reporters accept it).
//!
//! One `testsuite` per file; one `testcase` per implementation (kernel or procedure), named
//! after it, with the file as its class name. An implementation with errors has one `failure`
//! per error (its kind as type, its message, and `file:line:column` with the notes as text);
//! an inconclusive one has an `error`. A file kivl could not verify (unreadable, syntax, type,
//! unsupported) is one `testcase` named after the file with an `error` per diagnostic; errors
//! not tied to an implementation (a termination check, errors of a cached report) go in a
//! `testcase` named after the file too. Files left out by `--stop-at-first-error` are
//! `skipped` test cases.

use super::model::{bounded_wording, is_trace, FileReport, RunExtras, Verdict};
use ivl::diag::{Diagnostic, ErrorKind};
use std::fmt::Write;
use vcgen::engine::SKIPPED_AT_FIRST_ERROR;

/// The JUnit XML of the reports.
pub fn junit_text(reports: &[FileReport], run: &RunExtras) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    for r in reports {
        let suite = Suite::of(r);
        tests += suite.tests;
        failures += suite.failures;
        errors += suite.errors;
        suites.push_str(&suite.xml);
    }
    for name in &run.skipped {
        tests += 1;
        let n = escape(name);
        let _ = write!(
            suites,
            "  <testsuite name=\"{n}\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n    <testcase name=\"{n}\" classname=\"{n}\">\n      <skipped message=\"{SKIPPED_AT_FIRST_ERROR}\"/>\n    </testcase>\n  </testsuite>\n"
        );
    }
    let time = time_attr(&run.total_ms.into());
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kivl\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\"{time}>\n{suites}</testsuites>\n"
    )
}

/// One file's `testsuite`, with its counts.
struct Suite {
    xml: String,
    tests: usize,
    failures: usize,
    errors: usize,
    /// Test cases neither passed nor failed (`bounded`, `skipped` implementations).
    skipped: usize,
}

impl Suite {
    fn of(r: &FileReport) -> Suite {
        let file = escape(&r.source.name);
        let mut cases = String::new();
        let mut s = Suite { xml: String::new(), tests: 0, failures: 0, errors: 0, skipped: 0 };
        let impls = r.extra.get("implementations").and_then(|v| v.as_array()).cloned().unwrap_or_default();
        let mut attributed = vec![false; r.errors.len()];
        if r.verdict != Verdict::Invalid {
            for (i, imp) in impls.iter().enumerate() {
                let name = imp["name"].as_str().unwrap_or("?");
                let range = r.impl_errors.get(i).cloned().unwrap_or(0..0);
                let ds: Vec<&Diagnostic> = r.errors.get(range.clone()).into_iter().flatten().collect();
                range.for_each(|k| attributed[k] = true);
                // `--loop-unwind`: no error found, no proof either: not a passed test.
                // `--loop-unwind`: no error found, no proof either: not a passed test;
                // `--stop-at-first-error`: not verified at all.
                let skipped = match imp["outcome"].as_str() {
                    Some("bounded") => {
                        let depth = r.extra.get("loop_unwind").and_then(|v| v.as_u64()).unwrap_or(0);
                        Some(bounded_wording(depth))
                    }
                    Some("skipped") => Some(SKIPPED_AT_FIRST_ERROR.to_string()),
                    _ => None,
                };
                s.skipped += usize::from(skipped.is_some());
                s.case(&mut cases, name, time_attr(&imp["time_ms"]), &ds, skipped.as_deref(), r);
            }
        }
        let rest: Vec<&Diagnostic> = r.errors.iter().zip(&attributed).filter(|(_, a)| !**a).map(|(d, _)| d).collect();
        if !rest.is_empty() || impls.is_empty() {
            s.case(&mut cases, &r.source.name, String::new(), &rest, None, r);
        }
        let time = time_attr(r.extra.get("time_ms").unwrap_or(&serde_json::Value::Null));
        let skipped = if s.skipped > 0 { format!(" skipped=\"{}\"", s.skipped) } else { String::new() };
        s.xml = format!(
            "  <testsuite name=\"{file}\" tests=\"{}\" failures=\"{}\" errors=\"{}\"{skipped}{time}>\n{cases}  </testsuite>\n",
            s.tests, s.failures, s.errors
        );
        s
    }

    /// A `testcase` with a `failure` per verification error and an `error` per inconclusive
    /// check or input error; `skipped`: why it is neither passed nor failed.
    fn case(
        &mut self,
        out: &mut String,
        name: &str,
        time: String,
        ds: &[&Diagnostic],
        skipped: Option<&str>,
        r: &FileReport,
    ) {
        let file = escape(&r.source.name);
        self.tests += 1;
        let _ = writeln!(out, "    <testcase name=\"{}\" classname=\"{file}\"{time}>", escape(name));
        for d in ds {
            let tag = if d.kind == ErrorKind::Timeout || d.kind.is_input_error() {
                self.errors += 1;
                "error"
            } else {
                self.failures += 1;
                "failure"
            };
            let _ = writeln!(
                out,
                "      <{tag} message=\"{}\" type=\"{}\">{}</{tag}>",
                escape(&d.message),
                d.kind.as_str(),
                escape(&body(d, r)).replace("&#10;", "\n")
            );
        }
        if let Some(why) = skipped {
            let _ = writeln!(out, "      <skipped message=\"{}\"/>", escape(why));
        }
        out.push_str("    </testcase>\n");
    }
}

/// ` time="1.234"` for a time in milliseconds (nothing when there is none).
fn time_attr(ms: &serde_json::Value) -> String {
    ms.as_u64().map(|ms| format!(" time=\"{:.3}\"", ms as f64 / 1000.0)).unwrap_or_default()
}

/// A failure's text: where (`file:line:column`, every location with its label) and the notes
/// but the execution trace.
fn body(d: &Diagnostic, r: &FileReport) -> String {
    let json = d.to_json(&r.source);
    let mut lines: Vec<String> =
        json.locations.iter().map(|l| format!("{}:{}:{}: {}", r.source.name, l.line, l.column, l.label)).collect();
    lines.extend(json.notes.iter().filter(|n| !is_trace(n)).cloned());
    lines.join("\n")
}

/// Text as XML character data or an attribute value.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            // XML 1.0 allows no other control characters.
            c if (c as u32) < 0x20 && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(escape("a<b & \"c\">\n\u{1}"), "a&lt;b &amp; &quot;c&quot;&gt;&#10; ");
    }
}
