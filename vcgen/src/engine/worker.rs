//! A worker thread of the pool (see `super::pool`): it takes units (implementations, or shares
//! of one) until none is left, builds each one's solver once in a Z3 context of the unit's own
//! (`super::unit::Unit`), and then verifies it (without Houdini) or keeps it and serves the
//! coordinator's Houdini commands: rounds (`super::rounds`) or the asynchronous search
//! (`super::asynchronous`). A panic is caught and reported as [`Msg::Crashed`].

use super::asynchronous::{async_unit, enumerate_share};
use super::outcome::Outcome;
use super::pool::{Cmd, Msg, Shared};
use super::rounds::check_units;
use super::unit::{encode_program, BuildError, ImplState, Unit};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Mutex;
use std::time::Duration;

/// Runs worker `w` until the coordinator has no more work for it.
pub(super) fn run_worker(w: usize, shared: &Shared, commands: Mutex<Receiver<Cmd>>, out: Sender<Msg>) {
    let out_panic = out.clone();
    let result = catch_unwind(AssertUnwindSafe(|| worker_body(w, shared, &commands, &Mutex::new(out))));
    if let Err(p) = result {
        let message = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into());
        let _ = out_panic.send(Msg::Crashed { worker: w, message });
    }
}

/// The units worker `w` takes: shares of one implementation go to different workers (a fixed
/// distribution); without shares, implementations go to whichever worker is free.
fn next_unit(w: usize, shared: &Shared, taken: &mut usize) -> Option<usize> {
    let units = shared.impls.len() * shared.share;
    let u = if shared.share > 1 {
        let u = w + *taken * shared.workers;
        *taken += 1;
        u
    } else {
        shared.next.fetch_add(1, Ordering::SeqCst)
    };
    (u < units).then_some(u)
}

fn worker_body(w: usize, shared: &Shared, commands: &Mutex<Receiver<Cmd>>, out: &Mutex<Sender<Msg>>) {
    let send = |m: Msg| {
        let _ = out.lock().expect("sender").send(m);
    };
    // Without implementations the declarations are still encoded once, for their errors.
    if shared.impls.is_empty() && w == 0 {
        match encode_program(shared.program) {
            Ok(notes) => send(Msg::Built { worker: w, unit: 0, mentions: Err(Vec::new()), notes }),
            Err(errors) => send(Msg::Invalid(errors)),
        }
    }
    let owned = take_units(w, shared, &send);
    send(Msg::Taken);
    if shared.opts.houdini {
        serve_houdini(w, shared, &owned, commands, &send);
    }
}

/// Takes and builds units until none is left: without Houdini each is verified at once and
/// dropped, with Houdini the worker keeps it (returned).
fn take_units(w: usize, shared: &Shared, send: &dyn Fn(Msg)) -> Vec<(usize, Unit)> {
    let opts = shared.opts;
    let mut taken = 0;
    let mut owned: Vec<(usize, Unit)> = Vec::new();
    while let Some(unit) = next_unit(w, shared, &mut taken) {
        let i = unit / shared.share;
        // `--stop-at-first-error` after an earlier implementation's error: not started (the
        // coordinator reports it as skipped).
        if !opts.houdini && shared.skips(i) {
            continue;
        }
        match Unit::build(shared, unit) {
            Ok((built, notes)) => {
                send(Msg::Built { worker: w, unit, mentions: Ok(built.mentions()), notes });
                if opts.houdini {
                    owned.push((unit, built));
                } else {
                    let (outcome, time) = built.run(shared, w, |state, _| final_check(shared, i, state));
                    send(Msg::Final { imp: i, outcome, time });
                }
            }
            Err(BuildError::Program(errors)) => {
                send(Msg::Invalid(errors));
                send(Msg::Built { worker: w, unit, mentions: Err(Vec::new()), notes: Vec::new() });
            }
            // Every share finds the same input errors: one reports them.
            Err(BuildError::Impl(d)) => send(Msg::Built {
                worker: w,
                unit,
                mentions: Err(if unit % shared.share == 0 { d } else { Vec::new() }),
                notes: Vec::new(),
            }),
        }
    }
    owned
}

/// The verification of implementation `i` without Houdini; with `--stop-at-first-error`, not
/// begun when an earlier implementation has an error (checked after the unit's context is
/// published, so that an error found later interrupts this check), and an error found stops
/// the later implementations ([`Shared::stop_after`]).
fn final_check(shared: &Shared, i: usize, state: &ImplState) -> (Outcome, Duration) {
    if shared.skips(i) {
        return (Outcome::skipped(), Duration::ZERO);
    }
    let (outcome, time) = state.final_check(shared.opts);
    if shared.opts.stop_at_first_error && matches!(outcome, Outcome::Errors(_)) {
        shared.stop_after(i);
    }
    (outcome, time)
}

/// Serves the coordinator's Houdini commands on the units the worker owns, until it is told
/// to stop (or the coordinator hangs up).
fn serve_houdini(
    w: usize,
    shared: &Shared,
    owned: &[(usize, Unit)],
    commands: &Mutex<Receiver<Cmd>>,
    send: &dyn Fn(Msg),
) {
    loop {
        let command = commands.lock().expect("receiver").recv();
        match command {
            Ok(Cmd::Round(assignment, units)) => check_units(w, shared, owned, &assignment, units, send),
            Ok(Cmd::Async(version, assignment)) => {
                // A worker owns one unit in this mode (as many units as workers).
                if let Some((u, unit)) = owned.first() {
                    let commands = commands.lock().expect("receiver");
                    unit.run(shared, w, |state, cands| {
                        async_unit(shared, (w, *u), state, cands, (version, assignment), &commands, send)
                    });
                }
                return;
            }
            // Only after `Cmd::Async` (the first command of asynchronous Houdini), but should
            // it come first, the coordinator still gets its answer.
            Ok(Cmd::Enumerate(assignment)) => {
                if let Some((u, unit)) = owned.first() {
                    unit.run(shared, w, |state, cands| {
                        enumerate_share(shared, (w, *u), state, cands, &assignment, send)
                    });
                }
                return;
            }
            Ok(Cmd::Stop) | Err(_) => return,
        }
    }
}
