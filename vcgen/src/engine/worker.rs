//! A worker thread of the pool (see `super::pool`): it makes its own Z3 context and program
//! encoding, takes units (implementations, or shares of one) until none is left, builds each
//! one's solver once, and then verifies it (without Houdini) or keeps it and serves the
//! coordinator's Houdini commands: rounds (`super::rounds`) or the asynchronous search
//! (`super::asynchronous`). A panic is caught and reported as [`Msg::Crashed`].

use super::asynchronous::async_unit;
use super::pool::{Cmd, ContextEntry, Msg, Shared};
use super::rounds::check_units;
use super::unit::{z3_config, ImplState};
use crate::smt::Encoder;
use crate::HashSet;
use ivl::ast::Name;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Mutex;
use z3::ast::Bool;

/// Runs worker `w` until the coordinator has no more work for it.
pub(super) fn run_worker(w: usize, shared: &Shared, commands: Mutex<Receiver<Cmd>>, out: Sender<Msg>) {
    let out_panic = out.clone();
    let result = catch_unwind(AssertUnwindSafe(|| {
        z3::with_z3_config(&z3_config(), || worker_body(w, shared, &commands, &Mutex::new(out)))
    }));
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
    let _published = ContextEntry::publish(shared, w);
    let mut taken = 0;
    let mut enc = match Encoder::new(shared.program) {
        Ok(e) => e,
        Err(errors) => {
            send(Msg::Invalid(errors));
            // Still account for the units, so the coordinator is not left waiting.
            while let Some(unit) = next_unit(w, shared, &mut taken) {
                send(Msg::Built { worker: w, unit, mentions: Err(Vec::new()) });
            }
            send(Msg::Taken { notes: Vec::new() });
            return;
        }
    };
    let candidate_set: HashSet<Name> = shared.candidates.iter().cloned().collect();
    let cand_lits: Vec<(Name, Bool)> = shared
        .candidates
        .iter()
        .filter_map(|c| enc.constant(c).and_then(|d| d.as_bool()).map(|b| (c.clone(), b)))
        .collect();
    let owned = take_units(w, shared, &mut taken, &mut enc, &candidate_set, &send);
    send(Msg::Taken { notes: std::mem::take(&mut enc.notes) });
    if !shared.opts.houdini {
        return;
    }
    serve_houdini(shared, &owned, &cand_lits, commands, &send);
}

/// Takes and builds units until none is left: without Houdini each is verified at once and
/// dropped, with Houdini the worker keeps its solver (returned).
fn take_units(
    w: usize,
    shared: &Shared,
    taken: &mut usize,
    enc: &mut Encoder,
    candidate_set: &HashSet<Name>,
    send: &dyn Fn(Msg),
) -> Vec<(usize, ImplState)> {
    let opts = shared.opts;
    let mut owned: Vec<(usize, ImplState)> = Vec::new();
    while let Some(unit) = next_unit(w, shared, taken) {
        let i = unit / shared.share;
        let racer = shared.racer(unit);
        match ImplState::build(enc, &shared.impls[i], shared.globals, candidate_set, opts, racer) {
            Ok(state) => {
                let mentions = state.solver.vc.mentioned_candidates.clone();
                send(Msg::Built { worker: w, unit, mentions: Ok(mentions) });
                if opts.houdini {
                    owned.push((unit, state));
                } else {
                    let (outcome, time) = state.final_check(opts);
                    send(Msg::Final { imp: i, outcome, time });
                }
            }
            // Every share finds the same input errors: one reports them.
            Err(d) => send(Msg::Built {
                worker: w,
                unit,
                mentions: Err(if unit % shared.share == 0 { d } else { Vec::new() }),
            }),
        }
    }
    owned
}

/// Serves the coordinator's Houdini commands on the units the worker owns, until it is told
/// to stop (or the coordinator hangs up).
fn serve_houdini(
    shared: &Shared,
    owned: &[(usize, ImplState)],
    cand_lits: &[(Name, Bool)],
    commands: &Mutex<Receiver<Cmd>>,
    send: &dyn Fn(Msg),
) {
    loop {
        let command = commands.lock().expect("receiver").recv();
        match command {
            Ok(Cmd::Round(assignment, units)) => check_units(shared, owned, cand_lits, &assignment, units, send),
            Ok(Cmd::Async(version, assignment)) => {
                // A worker owns one unit in this mode (as many units as workers).
                if let Some((u, state)) = owned.first() {
                    async_unit(
                        shared,
                        *u,
                        state,
                        cand_lits,
                        (version, assignment),
                        &commands.lock().expect("receiver"),
                        send,
                    );
                }
                return;
            }
            Ok(Cmd::Stop) | Err(_) => return,
        }
    }
}
