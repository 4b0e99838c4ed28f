//! Houdini in Boogie's rounds (the default strategy, one solver per implementation): the
//! coordinator runs [`houdini::fixpoint`] and sends each round's implementations to the workers
//! that own them ([`houdini_rounds`]); the workers check them in parallel ([`check_units`]).
//! Refutation is monotone, so the order of checks does not matter, and the result does not
//! depend on the number of threads.

use super::outcome::{crash_reason, SKIPPED_AT_FIRST_ERROR};
use super::pool::{Cmd, Driver, Msg, Shared};
use super::unit::Unit;
use crate::houdini::{self, Assignment, HoudiniStats, ImplRound, Part};
use crate::progress::Progress;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Houdini in rounds ([`houdini::fixpoint`]), one unit per implementation: each round's
/// implementations are sent to the workers that own them and checked in parallel. Returns the
/// statistics, each implementation's last round and its time.
pub(super) fn houdini_rounds(d: Driver) -> (HoudiniStats, Vec<Option<ImplRound>>, Vec<Duration>) {
    let Driver { shared, owner, mentions, to_workers, inbox, crashed, crash_message } = d;
    let n = shared.impls.len();
    let mut times: Vec<Duration> = vec![Duration::ZERO; n];
    let mut round = 0;
    let (stats, last) = houdini::fixpoint(shared.candidates, shared.start_false, mentions, |assignment, worklist| {
        round += 1;
        let left = assignment.values().filter(|v| **v).count();
        let (candidates, impls) = (assignment.len(), worklist.len());
        shared.opts.observer.notify(Progress::Round { round, left, candidates, impls });
        let a = Arc::new(assignment.clone());
        let mut expected = 0;
        for (w, tx) in to_workers.iter().enumerate() {
            let units: Vec<usize> = worklist.iter().copied().filter(|&i| owner[i] == Some(w)).collect();
            if !units.is_empty() && !crashed.contains(&w) {
                expected += units.len();
                let _ = tx.send(Cmd::Round(a.clone(), units));
            }
        }
        let mut rounds: Vec<Option<(ImplRound, usize)>> = vec![None; n];
        let mut got = 0;
        while got < expected {
            let Ok(msg) = inbox.recv() else { break };
            match msg {
                Msg::Round { unit, round, checks, time } => {
                    got += 1;
                    rounds[unit] = Some((round, checks));
                    times[unit] = times[unit].max(time);
                }
                Msg::Crashed { worker, message } => {
                    crashed.push(worker);
                    *crash_message = message;
                    // Its pending units will not answer; its implementations stay unsettled.
                    let lost = worklist.iter().filter(|&&i| owner[i] == Some(worker)).count();
                    expected -= lost.min(expected);
                }
                _ => {}
            }
        }
        worklist
            .iter()
            .map(|&i| match rounds[i].take() {
                Some((round, checks)) => (i, round, checks),
                // Lost with a crashed worker: never "verified".
                None => (i, ImplRound::inconclusive(crash_reason(crash_message)), 0),
            })
            .collect()
    });
    (stats, last, times)
}

/// The worker's side of a round: checks each of `units` that worker `w` owns under the
/// assignment, as a whole VC, and sends the result. With `--stop-at-first-error`, an error (a
/// failure no candidate guards: it holds under any weaker assignment too, so it is final)
/// interrupts and skips the later implementations of the round ([`Shared::stop_after`]).
pub(super) fn check_units(
    w: usize,
    shared: &Shared,
    owned: &[(usize, Unit)],
    assignment: &Assignment,
    units: Vec<usize>,
    send: &dyn Fn(Msg),
) {
    for u in units {
        if let Some((_, unit)) = owned.iter().find(|(j, _)| *j == u) {
            let start = Instant::now();
            let imp = u / shared.share;
            let (round, checks, build_time) = unit.run(shared, w, |state, cands| {
                // `--stop-at-first-error`: an earlier implementation has an error, which ends
                // the search after this round (`ImplRound::stops`); this one is not checked.
                if shared.skips(imp) {
                    return (ImplRound::inconclusive(SKIPPED_AT_FIRST_ERROR.into()), 0, Duration::ZERO);
                }
                let (round, checks) = state.houdini_round(cands, assignment, shared.opts.error_limit, Part::default());
                if shared.opts.stop_at_first_error && round.stops() {
                    shared.stop_after(imp);
                }
                (round, checks, state.build_time)
            });
            send(Msg::Round { unit: u, round, checks, time: build_time + start.elapsed() });
        }
    }
}
