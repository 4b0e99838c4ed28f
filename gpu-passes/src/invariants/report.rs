//! The inference report (`kivl verify --houdini --infer-info`): how many candidates each rule
//! generated and how many survived, and — when the proof fails — the candidates that were
//! dropped at the loops where it failed, so that a user can see which invariant is missing and
//! write it (seed 001 §4.5 notes that inference "cannot be complete").
//!
//! A candidate clause can stand for several Houdini guards: the two-thread reduction reads it
//! in each modelled thread and in each variant (two threads of one group, of different groups).
//! It counts as *kept* when every one of its guards stayed true, *partly kept* when some did.
//! Guards are mapped back to candidates by the clause spans of Houdini's origins
//! ([`super::candidate_of_span`]).

use super::dynamic::DynamicResult;
use super::{CandidateInfo, CandidateSite, RULES};
use ivl::ast::Span;
use ivl::diag::SourceFile;
use serde_json::json;
use std::collections::HashMap;
use std::fmt::Write;
use std::time::Duration;
use vcgen::engine::{Outcome, ProgramResult};

/// What became of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every Houdini guard of the clause stayed true: the invariant was proved and used.
    Kept,
    /// Some guards stayed true (say, for two threads of one group but not of different groups).
    PartlyKept,
    /// Houdini refuted it.
    Dropped,
    /// A concrete run refuted it before Houdini ran ([`super::dynamic`]).
    KilledByRun,
    /// It did not reach Houdini (the reduction or the verifier stopped before, or the kernel was
    /// proved without it: `crate::driver::staged`).
    NotChecked,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Kept => "kept",
            Status::PartlyKept => "partly-kept",
            Status::Dropped => "dropped",
            Status::KilledByRun => "killed-by-run",
            Status::NotChecked => "not-checked",
        }
    }
    fn survived(self) -> bool {
        matches!(self, Status::Kept | Status::PartlyKept)
    }
}

/// One candidate in the report.
#[derive(Clone, Debug)]
pub struct CandidateReport {
    pub id: usize,
    pub rule: &'static str,
    pub proc: String,
    /// Index into [`InferenceReport::loops`], for loop invariants.
    pub loop_index: Option<usize>,
    /// `invariant`, `requires` or `ensures`.
    pub clause: &'static str,
    pub text: String,
    pub status: Status,
}

/// One loop in the report.
#[derive(Clone, Debug)]
pub struct LoopReport {
    pub proc: String,
    pub span: Span,
    /// 1-based line, when the source was given ([`InferenceReport::set_source`]).
    pub line: Option<usize>,
    pub has_barrier: bool,
    pub user_invariants: usize,
}

/// Per-rule counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleCount {
    pub rule: &'static str,
    pub generated: usize,
    pub kept: usize,
    pub killed_by_run: usize,
}

/// A loop where verification failed, with the errors located in it and the candidates that did
/// not survive there.
#[derive(Clone, Debug)]
pub struct FailingLoop {
    pub loop_index: usize,
    pub errors: Vec<String>,
    /// Candidate ids ([`InferenceReport::candidates`]) dropped or killed at this loop.
    pub dropped: Vec<usize>,
}

/// What the inference generated, what concrete runs refuted and what Houdini kept (`--infer-info`).
#[derive(Clone, Debug, Default)]
pub struct InferenceReport {
    pub verified: bool,
    pub candidates: Vec<CandidateReport>,
    pub loops: Vec<LoopReport>,
    pub per_rule: Vec<RuleCount>,
    pub failing: Vec<FailingLoop>,
    pub houdini_time: Duration,
    pub houdini_rounds: usize,
    pub dynamic_runs: u64,
    pub dynamic_time: Duration,
}

impl InferenceReport {
    pub fn generated(&self) -> usize {
        self.candidates.len()
    }
    pub fn kept(&self) -> usize {
        self.candidates.iter().filter(|c| c.status.survived()).count()
    }
    pub fn killed_by_run(&self) -> usize {
        self.candidates.iter().filter(|c| c.status == Status::KilledByRun).count()
    }
    /// The candidate with id `id`.
    pub fn candidate(&self, id: usize) -> Option<&CandidateReport> {
        self.candidates.iter().find(|c| c.id == id)
    }
    /// Fills in line numbers of loops.
    pub fn set_source(&mut self, file: &SourceFile) {
        for l in &mut self.loops {
            l.line = Some(file.line_col(l.span.start).0);
        }
    }
}

/// Builds the report from the generated candidates, the dynamic phase and the verifier's result.
pub fn build(info: &CandidateInfo, dynamic: &DynamicResult, result: &ProgramResult) -> InferenceReport {
    // Guards per candidate: (total, kept).
    let mut guards: HashMap<usize, (usize, usize)> = HashMap::new();
    if let Some(h) = &result.houdini {
        for (guard, span) in &h.origins {
            let Some(id) = super::candidate_of_span(*span) else {
                continue;
            };
            let e = guards.entry(id).or_default();
            e.0 += 1;
            if h.assignment.get(guard).copied().unwrap_or(false) {
                e.1 += 1;
            }
        }
    }
    let candidates: Vec<CandidateReport> = info
        .candidates
        .iter()
        .map(|c| {
            let status = if dynamic.killed.contains(&c.id) {
                Status::KilledByRun
            } else {
                match guards.get(&c.id) {
                    None | Some((0, _)) => Status::NotChecked,
                    Some((t, k)) if k == t => Status::Kept,
                    Some((_, 0)) => Status::Dropped,
                    Some(_) => Status::PartlyKept,
                }
            };
            let (loop_index, clause) = match c.site {
                CandidateSite::Loop(i) => (Some(i), "invariant"),
                CandidateSite::Requires => (None, "requires"),
                CandidateSite::Ensures => (None, "ensures"),
            };
            CandidateReport {
                id: c.id,
                rule: c.rule,
                proc: c.proc.to_string(),
                loop_index,
                clause,
                text: c.text.clone(),
                status,
            }
        })
        .collect();
    let loops: Vec<LoopReport> = info
        .loops
        .iter()
        .map(|l| LoopReport {
            proc: l.proc.to_string(),
            span: l.span,
            line: None,
            has_barrier: l.has_barrier,
            user_invariants: l.user_invariants,
        })
        .collect();
    let per_rule = RULES
        .iter()
        .filter_map(|r| {
            let of_rule: Vec<&CandidateReport> = candidates.iter().filter(|c| c.rule == *r).collect();
            (!of_rule.is_empty()).then(|| RuleCount {
                rule: r,
                generated: of_rule.len(),
                kept: of_rule.iter().filter(|c| c.status.survived()).count(),
                killed_by_run: of_rule.iter().filter(|c| c.status == Status::KilledByRun).count(),
            })
        })
        .collect();
    let verified = result.errors.is_empty() && result.impls.iter().all(|i| matches!(i.outcome, Outcome::Verified));
    let failing = failing_loops(&loops, &candidates, result);
    let (houdini_time, houdini_rounds) = result.houdini.as_ref().map(|h| (h.time, h.rounds)).unwrap_or_default();
    InferenceReport {
        verified,
        candidates,
        loops,
        per_rule,
        failing,
        houdini_time,
        houdini_rounds,
        dynamic_runs: dynamic.runs,
        dynamic_time: dynamic.time,
    }
}

/// The loops an error belongs to: the innermost `while` whose text contains it; failing that,
/// every loop before it (a missing invariant at an earlier loop weakens what follows it).
fn loops_of_error(loops: &[LoopReport], at: Span) -> Vec<usize> {
    let containing = loops
        .iter()
        .enumerate()
        .filter(|(_, l)| l.span.start <= at.start && at.start < l.span.end && l.span.end > l.span.start + 1)
        .min_by_key(|(_, l)| l.span.end - l.span.start)
        .map(|(i, _)| i);
    match containing {
        Some(i) => vec![i],
        None => loops.iter().enumerate().filter(|(_, l)| l.span.start < at.start).map(|(i, _)| i).collect(),
    }
}

fn failing_loops(loops: &[LoopReport], candidates: &[CandidateReport], result: &ProgramResult) -> Vec<FailingLoop> {
    let mut failing: Vec<FailingLoop> = Vec::new();
    for imp in &result.impls {
        let Outcome::Errors(ds) = &imp.outcome else {
            continue;
        };
        for d in ds {
            for i in loops_of_error(loops, d.primary.span) {
                let entry = match failing.iter().position(|f| f.loop_index == i) {
                    Some(k) => &mut failing[k],
                    None => {
                        failing.push(FailingLoop { loop_index: i, errors: vec![], dropped: vec![] });
                        failing.last_mut().expect("pushed")
                    }
                };
                let msg = format!("{}: {}", d.kind.as_str(), d.message);
                if !entry.errors.contains(&msg) {
                    entry.errors.push(msg);
                }
            }
        }
    }
    for f in &mut failing {
        f.dropped = candidates
            .iter()
            .filter(|c| {
                c.loop_index == Some(f.loop_index)
                    && matches!(c.status, Status::Dropped | Status::KilledByRun | Status::PartlyKept)
            })
            .map(|c| c.id)
            .collect();
    }
    failing.sort_by_key(|f| f.loop_index);
    failing
}

fn loop_name(r: &InferenceReport, i: usize) -> String {
    let l = &r.loops[i];
    match l.line {
        Some(line) => format!("loop at line {line} in `{}`", l.proc),
        None => format!("loop at offset {} in `{}`", l.span.start, l.proc),
    }
}

/// The report as text, for humans.
pub fn infer_info_text(r: &InferenceReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "invariant inference: {} candidates generated, {} kept, {} killed by concrete runs ({} runs, {:.1?}), Houdini {} rounds in {:.1?}",
        r.generated(),
        r.kept(),
        r.killed_by_run(),
        r.dynamic_runs,
        r.dynamic_time,
        r.houdini_rounds,
        r.houdini_time
    );
    if !r.per_rule.is_empty() {
        let _ = writeln!(s, "  {:<28} {:>9} {:>6} {:>7}", "rule", "generated", "kept", "by-run");
        for c in &r.per_rule {
            let _ = writeln!(s, "  {:<28} {:>9} {:>6} {:>7}", c.rule, c.generated, c.kept, c.killed_by_run);
        }
    }
    for (i, _) in r.loops.iter().enumerate() {
        let kept: Vec<&CandidateReport> =
            r.candidates.iter().filter(|c| c.loop_index == Some(i) && c.status.survived()).collect();
        let _ = writeln!(s, "{}: {} invariants inferred", loop_name(r, i), kept.len());
        for c in kept {
            let partly = if c.status == Status::PartlyKept { " (only for some pairs of threads)" } else { "" };
            let _ = writeln!(s, "    invariant {};  // {}{partly}", c.text, c.rule);
        }
    }
    let contracts: Vec<&CandidateReport> =
        r.candidates.iter().filter(|c| c.loop_index.is_none() && c.status.survived()).collect();
    for c in contracts {
        let _ = writeln!(s, "procedure `{}`: {} {};  // {}", c.proc, c.clause, c.text, c.rule);
    }
    if r.verified {
        return s;
    }
    if r.failing.is_empty() {
        let _ = writeln!(s, "verification failed outside loops: no missing loop invariant to point at");
    }
    for f in &r.failing {
        let _ = writeln!(s, "verification failed at the {}:", loop_name(r, f.loop_index));
        for e in &f.errors {
            let _ = writeln!(s, "    {e}");
        }
        if f.dropped.is_empty() {
            let _ =
                writeln!(s, "  no candidate was dropped there; the missing invariant is not among the generated ones");
        } else {
            let _ = writeln!(
                s,
                "  candidates that did not survive there (the missing invariant may be one of them, or need one):"
            );
            for id in &f.dropped {
                if let Some(c) = r.candidate(*id) {
                    let _ = writeln!(s, "    invariant {};  // {}, {}", c.text, c.rule, c.status.as_str());
                }
            }
        }
    }
    s
}

/// The report as JSON (for `--format json`).
pub fn infer_info_json(r: &InferenceReport) -> serde_json::Value {
    json!({
        "verified": r.verified,
        "generated": r.generated(),
        "kept": r.kept(),
        "killed_by_run": r.killed_by_run(),
        "dynamic_runs": r.dynamic_runs,
        "dynamic_ms": r.dynamic_time.as_millis() as u64,
        "houdini_ms": r.houdini_time.as_millis() as u64,
        "houdini_rounds": r.houdini_rounds,
        "rules": r.per_rule.iter().map(|c| json!({
            "rule": c.rule, "generated": c.generated, "kept": c.kept, "killed_by_run": c.killed_by_run,
        })).collect::<Vec<_>>(),
        "loops": r.loops.iter().enumerate().map(|(i, l)| json!({
            "index": i, "procedure": l.proc, "line": l.line, "offset": l.span.start,
            "has_barrier": l.has_barrier, "user_invariants": l.user_invariants,
        })).collect::<Vec<_>>(),
        "candidates": r.candidates.iter().map(|c| json!({
            "id": c.id, "rule": c.rule, "procedure": c.proc, "loop": c.loop_index, "clause": c.clause,
            "text": c.text, "status": c.status.as_str(),
        })).collect::<Vec<_>>(),
        "failing_loops": r.failing.iter().map(|f| json!({
            "loop": f.loop_index, "errors": f.errors, "dropped": f.dropped,
        })).collect::<Vec<_>>(),
    })
}
