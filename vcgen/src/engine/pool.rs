//! The worker pool's shared state and protocol. Parallelism: a dedicated rayon pool of `jobs`
//! threads runs one *worker* per thread (`super::worker`). Z3 objects cannot leave the thread
//! that made them, so each worker takes units (implementations) from a shared counter and keeps
//! each one it took for the whole run, each in a Z3 context of its own with its own program
//! encoding (`super::context`: the verdict must not depend on which units share a worker). The calling thread coordinates (`super::coordinate`): it sends each
//! worker commands ([`Cmd`]) and gathers plain Rust messages ([`Msg`]).
//!
//! Here too: the contexts the workers publish while they live, so that the coordinator can
//! interrupt a solver call (`Z3_interrupt`, the losers of a portfolio race), and what the
//! Houdini strategies work with ([`Driver`]).

use super::options::VerifyOptions;
use super::outcome::Outcome;
use crate::houdini::{Assignment, ImplRound};
use crate::HashSet;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::Diagnostic;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Stack size of the solver threads (expressions of the corpus nest ~5000 deep).
pub const WORKER_STACK: usize = 256 << 20;

/// Everything workers read.
pub(super) struct Shared<'a> {
    pub(super) program: &'a Program,
    pub(super) impls: &'a [BlockImpl],
    pub(super) globals: &'a [TypedIdent],
    pub(super) candidates: &'a [Name],
    /// The warm start: candidates' identities (when asked for) and those that start false.
    pub(super) identities: &'a std::collections::BTreeMap<Name, crate::houdini::CandidateId>,
    pub(super) start_false: &'a crate::HashSet<Name>,
    pub(super) opts: &'a VerifyOptions,
    /// Solvers per implementation (Houdini only); unit `u` is share `u % share` of
    /// implementation `u / share`.
    pub(super) share: usize,
    /// The shares race on the whole VC (portfolio) instead of splitting its assertions.
    pub(super) race: bool,
    pub(super) workers: usize,
    /// Set when asynchronous Houdini has its result: units still checking stop.
    pub(super) stop: AtomicBool,
    /// `--stop-at-first-error`: the first implementation (in program order) found to have an
    /// error so far (`usize::MAX`: none); only decreases.
    pub(super) first_error: AtomicUsize,
    /// Workers inside [`super::asynchronous::async_unit`].
    pub(super) active: AtomicUsize,
    pub(super) next: AtomicUsize,
    /// The Z3 context each worker is running a unit in, for interrupting the losers of a
    /// portfolio race and, with `--stop-at-first-error`, the implementations after an error.
    /// A worker clears its entry before it leaves the unit (whose context lives at least as
    /// long), under the same lock under which others interrupt.
    pub(super) contexts: Mutex<Vec<Option<Published>>>,
}

impl Shared<'_> {
    /// The solver configuration of unit `unit`: in a race, its place in the race
    /// ([`crate::solver::race_position`]); otherwise the usual one (0).
    pub(super) fn racer(&self, unit: usize) -> u32 {
        if self.race {
            crate::solver::race_position(unit % self.share, !self.candidates.is_empty())
        } else {
            0
        }
    }

    /// The published contexts (a panicking holder cannot leave the list half-written).
    fn contexts(&self) -> std::sync::MutexGuard<'_, Vec<Option<Published>>> {
        self.contexts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Interrupts the solver call worker `w` is running, if any, whatever it is for.
    pub(super) fn interrupt(&self, w: usize) {
        let contexts = self.contexts();
        if let Some(p) = contexts.get(w).copied().flatten() {
            interrupt_context(p.ctx);
        }
    }

    /// Runs `f`, one check of asynchronous Houdini, as worker `w`'s `check`; returns its
    /// result and whether the coordinator interrupted it ([`Shared::interrupt_if`]).
    pub(super) fn running<R>(&self, w: usize, check: Running, f: impl FnOnce() -> R) -> (R, bool) {
        self.set_running(w, Some((check, false)));
        let r = f();
        let interrupted = self.set_running(w, None).is_some_and(|(_, interrupted)| interrupted);
        (r, interrupted)
    }

    /// Sets worker `w`'s running check; returns the one before.
    fn set_running(&self, w: usize, check: Option<(Running, bool)>) -> Option<(Running, bool)> {
        let mut contexts = self.contexts();
        let p = contexts.get_mut(w).and_then(|p| p.as_mut())?;
        std::mem::replace(&mut p.running, check)
    }

    /// Interrupts worker `w`'s check if it is one `which` names, and marks it interrupted: the
    /// worker reports that with its result ([`Shared::running`]). A `Z3_interrupt` reaches
    /// whatever solver call the context runs when it arrives, so an interrupt meant for a
    /// check that has just ended would otherwise stop the worker's next one, which its
    /// result would then report as a timeout or as a short list of failures.
    pub(super) fn interrupt_if(&self, w: usize, which: impl Fn(Running) -> bool) {
        let mut contexts = self.contexts();
        let Some(p) = contexts.get_mut(w).and_then(|p| p.as_mut()) else { return };
        if let Some((check, interrupted)) = &mut p.running {
            if which(*check) {
                *interrupted = true;
                interrupt_context(p.ctx);
            }
        }
    }

    /// `--stop-at-first-error`: implementation `imp` has an error. The units of later
    /// implementations are not started any more ([`Shared::skips`]) and those running are
    /// stopped (their outcome is replaced by the coordinator): their contexts are cancelled
    /// ([`crate::watchdog::cancel`]) until they leave the unit, so that a check that was about
    /// to start, which one interrupt would miss, stops too. A unit published after this sees
    /// `first_error` ([`Shared::skips`]) before it checks anything.
    pub(super) fn stop_after(&self, imp: usize) {
        self.first_error.fetch_min(imp, Ordering::SeqCst);
        let contexts = self.contexts();
        for p in contexts.iter().flatten() {
            if p.unit / self.share > imp {
                crate::watchdog::cancel(p.ctx);
            }
        }
    }

    /// Whether implementation `imp` is left out by `--stop-at-first-error` (an earlier one has
    /// an error).
    pub(super) fn skips(&self, imp: usize) -> bool {
        self.opts.stop_at_first_error && imp > self.first_error.load(Ordering::SeqCst)
    }
}

/// A worker's entry in [`Shared::contexts`].
#[derive(Clone, Copy)]
pub(super) struct Published {
    /// The Z3 context (the raw pointer).
    ctx: usize,
    unit: usize,
    /// The check of asynchronous Houdini it runs, if any, and whether the coordinator
    /// interrupted it ([`Shared::running`]).
    running: Option<(Running, bool)>,
}

/// What a check of asynchronous Houdini is for, as the coordinator names the checks it
/// interrupts ([`Shared::interrupt_if`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Running {
    /// A search check under the coordinator's assignment of this version.
    Search(usize),
    /// The enumeration of a share's failures after a real failure (never interrupted before
    /// the end of Houdini).
    Enumerate,
}

/// `Z3_interrupt` on a published context (see [`Shared::contexts`]); the caller holds the lock.
fn interrupt_context(ctx: usize) {
    if let Some(ctx) = std::ptr::NonNull::new(ctx as *mut _) {
        // SAFETY: the context is alive while its entry is set (the worker clears it, under the
        // lock the caller holds, before the context is dropped), and `Z3_interrupt` may be
        // called from any thread.
        unsafe { z3_sys::Z3_interrupt(ctx) };
    }
}

/// Publishes the Z3 context a worker is running a unit in ([`super::unit::Unit::run`]) in
/// [`Shared::contexts`] and withdraws it on drop (also when the worker unwinds).
pub(super) struct ContextEntry<'a, 'b> {
    shared: &'a Shared<'b>,
    worker: usize,
}

impl<'a, 'b> ContextEntry<'a, 'b> {
    pub(super) fn publish(
        shared: &'a Shared<'b>,
        worker: usize,
        unit: usize,
        ctx: &z3::Context,
    ) -> ContextEntry<'a, 'b> {
        let ctx = ctx.get_z3_context().as_ptr() as usize;
        let mut contexts = shared.contexts();
        contexts[worker] = Some(Published { ctx, unit, running: None });
        if let Some(c) = &shared.opts.cancel {
            c.enter(ctx);
        }
        ContextEntry { shared, worker }
    }
}

impl Drop for ContextEntry<'_, '_> {
    /// Withdraws the entry and ends a cancellation of its context ([`Shared::stop_after`], a
    /// cancel from outside, [`super::Cancel`]), under the lock under which contexts are
    /// cancelled.
    fn drop(&mut self) {
        let mut contexts = self.shared.contexts();
        if let Some(Published { ctx, .. }) = contexts[self.worker].take() {
            if let Some(c) = &self.shared.opts.cancel {
                c.leave(ctx);
            }
            crate::watchdog::uncancel(ctx);
        }
    }
}

pub(super) enum Cmd {
    /// Houdini: check these units (owned by the worker) under the assignment.
    Round(Arc<Assignment>, Vec<usize>),
    /// Asynchronous Houdini: the newest assignment and its version; check the worker's unit
    /// under it until a check refutes nothing.
    Async(usize, Arc<Assignment>),
    /// Asynchronous Houdini with disjoint shares stopped at a real failure found under this
    /// assignment: report the failures of the unit's share under it, then stop.
    Enumerate(Arc<Assignment>),
    /// Asynchronous Houdini is over.
    Stop,
}

pub(super) enum Msg {
    /// Program-level encoding failed (sent once per unit, or once for a program without
    /// implementations).
    Invalid(Vec<Diagnostic>),
    /// Unit taken by a worker and prepared: Err for input errors; the notes of its encoding
    /// (program and implementation).
    Built {
        worker: usize,
        unit: usize,
        mentions: Result<HashSet<Name>, Vec<Diagnostic>>,
        notes: Vec<Diagnostic>,
    },
    /// No more units to take.
    Taken,
    Round {
        unit: usize,
        round: ImplRound,
        checks: usize,
        time: Duration,
    },
    /// Asynchronous Houdini: one check of a unit, under assignment `used`, derived from the
    /// coordinator's assignment of that version.
    Async {
        unit: usize,
        round: ImplRound,
        checks: usize,
        version: usize,
        used: Assignment,
        /// The coordinator interrupted the check ([`Shared::interrupt_if`]).
        interrupted: bool,
    },
    /// The failures of a unit's share under the assignment of [`Cmd::Enumerate`].
    Enumerated {
        unit: usize,
        round: ImplRound,
        checks: usize,
    },
    Final {
        imp: usize,
        outcome: Outcome,
        time: Duration,
    },
    /// The worker stopped because of a panic.
    Crashed {
        worker: usize,
        message: String,
    },
}

/// What the two Houdini strategies ([`super::rounds::houdini_rounds`],
/// [`super::asynchronous::async_fixpoint`]) work with: the workers' channels, which worker
/// owns which unit, and the workers lost so far.
pub(super) struct Driver<'a, 'b> {
    pub(super) shared: &'a Shared<'b>,
    /// Per unit: its worker.
    pub(super) owner: &'a [Option<usize>],
    /// Per implementation: the candidates it mentions.
    pub(super) mentions: &'a [HashSet<Name>],
    pub(super) to_workers: &'a [Sender<Cmd>],
    pub(super) inbox: &'a Receiver<Msg>,
    pub(super) crashed: &'a mut Vec<usize>,
    pub(super) crash_message: &'a mut String,
}
