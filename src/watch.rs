//! `kivl watch FILE...`: verifies the files, then again on every save, and prints only what
//! changed — a verdict that changed, errors that are new (`+`) or fixed (`-`).
//!
//! Saves are found by polling (each file's size and modification time every `poll`, its text
//! compared when they changed): no platform notification service to depend on, and an editor
//! that saves by renaming a new file over the old one is seen like any other. Verification
//! goes through one long-lived database ([`crate::incremental::Session`]), so a save that
//! edits one procedure re-verifies that procedure and what depends on it. A line on stderr
//! per verification says how many units were verified again and how long it took (wall and
//! CPU time: on a loaded machine the CPU time is the figure to compare).

use crate::incremental::Session;
use crate::pipeline::VerifyConfig;
use crate::report::{FileReport, Verdict};
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

/// What is remembered of a file between saves.
struct Seen {
    stamp: Option<(u64, SystemTime)>,
    text: Option<String>,
    verdict: Option<Verdict>,
    errors: BTreeSet<String>,
}

/// Watches until the process is interrupted (Ctrl-C: status 130).
pub fn run(files: &[PathBuf], cfg: &VerifyConfig, poll: Duration) -> i32 {
    let mut session = Session::new(cfg);
    let mut seen: HashMap<&PathBuf, Seen> = HashMap::new();
    loop {
        for path in files {
            let s =
                seen.entry(path).or_insert(Seen { stamp: None, text: None, verdict: None, errors: BTreeSet::new() });
            check(path, s, &mut session);
        }
        std::thread::sleep(poll);
    }
}

/// Verifies `path` again if its text changed since `seen`, and prints what changed.
fn check(path: &PathBuf, seen: &mut Seen, session: &mut Session) {
    let stamp = std::fs::metadata(path).ok().map(|m| (m.len(), m.modified().unwrap_or(SystemTime::UNIX_EPOCH)));
    if seen.verdict.is_some() && stamp == seen.stamp {
        return;
    }
    seen.stamp = stamp;
    let start = (Instant::now(), crate::timing::process_cpu_time());
    let (report, units) = match crate::front::read_source(path) {
        Ok(source) if seen.text.as_ref() == Some(&source.text) => return,
        Ok(source) => {
            seen.text = Some(source.text.clone());
            let Some(o) = session.verify(&source.name, source.text, &|| false) else { return };
            (o.report, Some((o.verified_units, o.units)))
        }
        Err(report) => {
            seen.text = None;
            (report, None)
        }
    };
    let out = changes(&report, seen);
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    if let Some((verified, all)) = units {
        let secs = start.0.elapsed().as_secs_f64();
        let cpu = crate::timing::process_cpu_time().saturating_sub(start.1).as_secs_f64();
        eprintln!(
            "kivl watch: {}: {verified} of {all} units verified again in {secs:.3} s ({cpu:.3} s of CPU time)",
            report.source.name
        );
    }
}

/// The lines that tell how `report` differs from what `seen` remembers (which it updates).
fn changes(report: &FileReport, seen: &mut Seen) -> String {
    let name = &report.source.name;
    let errors: BTreeSet<String> = report
        .errors
        .iter()
        .map(|d| {
            let (line, col) = if d.primary.span == ivl::ast::Span::DUMMY && report.source.text.is_empty() {
                (0, 0)
            } else {
                report.source.line_col(d.primary.span.start)
            };
            format!("{name}:{line}:{col}: {}: {}", d.kind.as_str(), d.message)
        })
        .collect();
    let mut out = String::new();
    match seen.verdict {
        None => out.push_str(&format!("{name}: {}\n", report.verdict.name())),
        Some(v) if v != report.verdict => out.push_str(&format!("{name}: {} -> {}\n", v.name(), report.verdict.name())),
        Some(_) => {}
    }
    for fixed in seen.errors.difference(&errors) {
        out.push_str(&format!("- {fixed}\n"));
    }
    for new in errors.difference(&seen.errors) {
        out.push_str(&format!("+ {new}\n"));
    }
    seen.verdict = Some(report.verdict);
    seen.errors = errors;
    out
}
