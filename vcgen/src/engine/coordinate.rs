//! The coordinator, in the calling thread: it gathers what the workers built (phase 1: every
//! unit taken and built and, without Houdini, verified), runs Houdini with the strategy that
//! fits (rounds, or asynchronous with several units per implementation), and returns plain
//! Rust results in program order, whatever the schedule.

use super::asynchronous::async_fixpoint;
use super::outcome::{crash_reason, ImplResult, Outcome, ProgramResult};
use super::pool::{Cmd, Driver, Msg, Shared};
use super::rounds::houdini_rounds;
use crate::progress::Progress;
use crate::HashSet;
use ivl::ast::Name;
use ivl::diag::Diagnostic;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

/// What phase 1 gathered.
struct Built {
    /// Per unit: its worker.
    owner: Vec<Option<usize>>,
    /// Per implementation: the candidates it mentions.
    mentions: Vec<HashSet<Name>>,
    /// Per implementation, without Houdini: its verdict and time.
    outcomes: Vec<Option<(Outcome, Duration)>>,
    /// Input errors of the implementations.
    errors: Vec<Diagnostic>,
    /// Input errors of the program encoding (from the first worker that reported them).
    invalid: Option<Vec<Diagnostic>>,
    /// The notes of each unit's encoding, with the unit (the program's appear in every unit's).
    notes: Vec<(usize, Vec<Diagnostic>)>,
    crashed: Vec<usize>,
    crash_message: String,
}

/// Runs in the calling thread: gathers builds, drives Houdini, gathers results.
pub(super) fn coordinate(
    shared: &Shared,
    workers: usize,
    to_workers: &[Sender<Cmd>],
    inbox: &Receiver<Msg>,
) -> ProgramResult {
    let observer = &shared.opts.observer;
    observer.notify(Progress::Started { impls: shared.impls.len(), houdini: shared.opts.houdini });
    let mut b = gather_builds(shared, workers, inbox);
    let mut result = ProgramResult { notes: merge_notes(std::mem::take(&mut b.notes)), ..Default::default() };
    if let Some(e) = b.invalid {
        result.errors = e;
        return result;
    }
    if !b.errors.is_empty() {
        result.errors = b.errors;
        return result;
    }
    if shared.opts.houdini {
        run_houdini(shared, to_workers, inbox, &mut b, &mut result);
    }
    for (i, imp) in shared.impls.iter().enumerate() {
        let (outcome, time) = b.outcomes[i]
            .take()
            .unwrap_or_else(|| (Outcome::Inconclusive(crash_reason(&b.crash_message)), Duration::ZERO));
        result.impls.push(ImplResult { name: imp.name.name.to_string(), span: imp.name.span, outcome, time });
    }
    if shared.opts.stop_at_first_error {
        skip_after_first_error(&mut result.impls);
    }
    observer.notify(Progress::Finished);
    result
}

/// `--stop-at-first-error`: every implementation after the first one with an error, in program
/// order, is reported as skipped, whether it was not started, interrupted or (on another
/// thread, before the error was found) checked, so that the report does not depend on `--jobs`.
fn skip_after_first_error(impls: &mut [ImplResult]) {
    let Some(first) = impls.iter().position(|r| matches!(r.outcome, Outcome::Errors(_))) else { return };
    for r in &mut impls[first + 1..] {
        r.outcome = Outcome::skipped();
        r.time = Duration::ZERO;
    }
}

/// Phase 1: every unit is taken and built (and, without Houdini, verified). A worker sends its
/// final results (without Houdini) before `Taken`, so once every worker has sent `Taken` (or
/// crashed) phase 1 is complete.
fn gather_builds(shared: &Shared, workers: usize, inbox: &Receiver<Msg>) -> Built {
    let n = shared.impls.len();
    let share = shared.share;
    let mut b = Built {
        owner: vec![None; n * share],
        mentions: vec![HashSet::default(); n],
        outcomes: vec![None; n],
        errors: Vec::new(),
        invalid: None,
        notes: Vec::new(),
        crashed: Vec::new(),
        crash_message: String::new(),
    };
    let mut taken = 0;
    let (mut built, mut checked) = (0, 0);
    let name = |unit: usize| shared.impls[unit / share].name.name.as_str();
    while taken + b.crashed.len() < workers {
        let Ok(msg) = inbox.recv() else { break };
        match msg {
            Msg::Invalid(e) => {
                if b.invalid.is_none() {
                    b.invalid = Some(e);
                }
            }
            Msg::Built { worker, unit, mentions: m, notes } => {
                b.notes.push((unit, notes));
                match m {
                    Ok(m) => {
                        built += 1;
                        shared.opts.observer.notify(Progress::Built {
                            name: name(unit),
                            done: built,
                            total: n * share,
                        });
                        b.owner[unit] = Some(worker);
                        b.mentions[unit / share] = m;
                    }
                    Err(d) => b.errors.extend(d),
                }
            }
            Msg::Taken => taken += 1,
            Msg::Final { imp, outcome, time } => {
                checked += 1;
                shared.opts.observer.notify(Progress::Checked { name: name(imp * share), done: checked, total: n });
                b.outcomes[imp] = Some((outcome, time));
            }
            Msg::Crashed { worker, message } => {
                b.crashed.push(worker);
                b.crash_message = message;
            }
            Msg::Round { .. } | Msg::Async { .. } | Msg::Enumerated { .. } => {}
        }
    }
    b
}

/// The notes of every unit's encoding in unit order, each once (the program's declarations
/// are encoded for every unit), whatever worker built which unit.
fn merge_notes(mut notes: Vec<(usize, Vec<Diagnostic>)>) -> Vec<Diagnostic> {
    notes.sort_by_key(|(unit, _)| *unit);
    let mut seen: HashSet<Diagnostic> = HashSet::default();
    notes.into_iter().flat_map(|(_, ns)| ns).filter(|d| seen.insert(d.clone())).collect()
}

/// Phase 2 with Houdini: several units per implementation (`split_vc`, `portfolio`):
/// asynchronous; otherwise in rounds, the implementations of a round in parallel. Each
/// implementation's outcome is read from its last round.
fn run_houdini(
    shared: &Shared,
    to_workers: &[Sender<Cmd>],
    inbox: &Receiver<Msg>,
    b: &mut Built,
    result: &mut ProgramResult,
) {
    let n = shared.impls.len();
    let driver = Driver {
        shared,
        owner: &b.owner,
        mentions: &b.mentions,
        to_workers,
        inbox,
        crashed: &mut b.crashed,
        crash_message: &mut b.crash_message,
    };
    let (mut stats, last, times) = if shared.share > 1 {
        let start = Instant::now();
        let (stats, last) = async_fixpoint(driver);
        (stats, last, vec![start.elapsed(); n])
    } else {
        houdini_rounds(driver)
    };
    for (i, l) in last.into_iter().enumerate() {
        b.outcomes[i] = Some((Outcome::of_houdini(l, &b.crash_message), times[i]));
    }
    if shared.opts.print_assignment {
        result.assignment_text = Some(stats.format_assignment());
    }
    stats.identities = shared.identities.clone();
    result.houdini = Some(stats);
}
