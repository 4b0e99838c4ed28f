//! The driver's findings (`gpu_passes::driver::Verdicts`) as a file report: the verdict, the
//! errors, Boogie's counts, and the JSON fields of docs/kbpl.md §8.4 (`verified`,
//! `implementations`, `houdini`, `inference`, `termination`), and what `--replay` adds to it.

use crate::report::{bounded_wording, FileReport, Verdict};
use gpu_passes::driver::Verdicts;
use gpu_passes::termination::TerminationResult;
use ivl::diag::{Diagnostic, ErrorKind, SourceFile};

/// The report of `source` from what the driver found.
pub fn file_report(source: SourceFile, v: Verdicts, print_assignment: bool, loop_unwind: Option<u64>) -> FileReport {
    let mut report = engine_report(source, v.result, print_assignment);
    if let Some(depth) = loop_unwind {
        bounded(&mut report, depth);
    }
    if let Some(mut info) = v.inference {
        info.set_source(&report.source);
        report.info.push(gpu_passes::invariants::report::infer_info_text(&info));
        report.extra.insert("inference".into(), gpu_passes::invariants::report::infer_info_json(&info));
    }
    if v.kernel && report.verdict != Verdict::Invalid {
        report.extra.insert("kernel".into(), true.into());
    }
    if let Some(t) = v.termination {
        add_termination(&mut report, t);
    }
    report
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

/// Bounded checking (`--loop-unwind N`): an implementation the engine found no error in is
/// `bounded`, not verified; so is the file when nothing else was found (docs/kbpl.md §8).
fn bounded(report: &mut FileReport, depth: u64) {
    let mut count = 0usize;
    if let Some(serde_json::Value::Array(impls)) = report.extra.get_mut("implementations") {
        for imp in impls.iter_mut().filter(|i| i["outcome"] == "verified") {
            imp["outcome"] = "bounded".into();
            count += 1;
            let name = imp["name"].as_str().unwrap_or_default();
            report.info.push(format!("`{name}`: {}", bounded_wording(depth)));
        }
    }
    report.extra.insert("verified".into(), 0.into());
    report.extra.insert("bounded".into(), count.into());
    report.extra.insert("loop_unwind".into(), depth.into());
    if report.verdict == Verdict::Verified {
        report.verdict = Verdict::Bounded;
    }
}

/// The human line naming the implementations `--stop-at-first-error` left out of a file.
fn skipped_line(names: &[String]) -> String {
    let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!("{}: {}", list.join(", "), vcgen::engine::SKIPPED_AT_FIRST_ERROR)
}

/// Turns the engine's per-implementation results into a file report.
fn engine_report(source: SourceFile, result: vcgen::engine::ProgramResult, print_assignment: bool) -> FileReport {
    use vcgen::engine::Outcome;
    // Program-level errors (input errors found while encoding) come first: never "verified".
    let mut errors = result.errors.clone();
    let mut verified = 0usize;
    let mut inconclusive = false;
    let mut per_impl = Vec::new();
    let mut impl_errors = Vec::new();
    let mut skipped = Vec::new();
    for imp in &result.impls {
        let first = errors.len();
        let status = match &imp.outcome {
            Outcome::Verified => {
                verified += 1;
                "verified".to_string()
            }
            Outcome::Errors(ds) => {
                errors.extend(ds.iter().cloned());
                "errors".to_string()
            }
            // `--stop-at-first-error` left it out: neither verified nor inconclusive.
            o if o.is_skipped() => {
                skipped.push(imp.name.clone());
                "skipped".to_string()
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
        impl_errors.push(first..errors.len());
        let time_ms = imp.time.as_millis() as u64;
        per_impl.push(serde_json::json!({ "name": imp.name.as_str(), "outcome": status, "time_ms": time_ms }));
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
    report.impl_errors = impl_errors;
    // As in the closing line ([`counts`]), nothing of an invalid file counts as verified.
    let verified = if verdict == Verdict::Invalid { 0 } else { verified };
    report.extra.insert("verified".into(), verified.into());
    report.extra.insert("implementations".into(), per_impl.into());
    if !skipped.is_empty() {
        report.info.push(skipped_line(&skipped));
        report.extra.insert("skipped_implementations".into(), skipped.into());
    }
    if let Some(h) = &result.houdini {
        let mut json = serde_json::json!({
            "candidates": h.candidates.len(),
            "kept": h.kept,
            "rounds": h.rounds,
            "checks": h.checks,
            "time_s": h.time.as_secs_f64(),
        });
        report.info.push(format!("houdini: {} candidates, {} kept", h.candidates.len(), h.kept));
        if let Some(why) = &h.limited {
            json["limited"] = why.as_str().into();
            report.info.push(format!(
                "houdini: a check stopped early ({why}); the candidates kept may depend on the machine's speed"
            ));
        }
        report.extra.insert("houdini".into(), json);
        if print_assignment {
            report.info.push(h.format_assignment().trim_end().to_string());
        }
    }
    report
}

/// Adds the termination check (seed 004) to a file's report: its errors, an info line, the
/// `termination` JSON field; a procedure whose loops are not all proven is not verified.
fn add_termination(report: &mut FileReport, t: TerminationResult) {
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
