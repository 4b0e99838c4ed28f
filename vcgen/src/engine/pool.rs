//! The worker pool's shared state and protocol. Parallelism: a dedicated rayon pool of `jobs`
//! threads runs one *worker* per thread (`super::worker`). Z3 objects cannot leave the thread
//! (and context) that made them, so each worker has its own Z3 context and program encoding,
//! takes implementations from a shared counter, and keeps the solver of each implementation it
//! took for the whole run. The calling thread coordinates (`super::coordinate`): it sends each
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
use std::sync::atomic::{AtomicBool, AtomicUsize};
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
    pub(super) opts: &'a VerifyOptions,
    /// Solvers per implementation (Houdini only); unit `u` is share `u % share` of
    /// implementation `u / share`.
    pub(super) share: usize,
    /// The shares race on the whole VC (portfolio) instead of splitting its assertions.
    pub(super) race: bool,
    pub(super) workers: usize,
    /// Set when asynchronous Houdini has its result: units still checking stop.
    pub(super) stop: AtomicBool,
    /// Workers inside [`super::asynchronous::async_unit`].
    pub(super) active: AtomicUsize,
    pub(super) next: AtomicUsize,
    /// Each worker's Z3 context while it is alive (the raw pointer), for interrupting the
    /// losers of a portfolio race. A worker clears its entry before its context is dropped,
    /// under the same lock under which the coordinator interrupts.
    pub(super) contexts: Mutex<Vec<Option<usize>>>,
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
    fn contexts(&self) -> std::sync::MutexGuard<'_, Vec<Option<usize>>> {
        self.contexts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Interrupts the solver call worker `w` is running, if any.
    pub(super) fn interrupt(&self, w: usize) {
        let contexts = self.contexts();
        if let Some(ctx) = contexts.get(w).copied().flatten().and_then(|c| std::ptr::NonNull::new(c as *mut _)) {
            // SAFETY: the context is alive while its entry is set (the worker clears it, under
            // this lock, before the context is dropped), and `Z3_interrupt` may be called from
            // any thread.
            unsafe { z3_sys::Z3_interrupt(ctx) };
        }
    }
}

/// Publishes the current thread's Z3 context in [`Shared::contexts`] and withdraws it on drop
/// (also when the worker unwinds).
pub(super) struct ContextEntry<'a> {
    shared: &'a Shared<'a>,
    worker: usize,
}

impl<'a> ContextEntry<'a> {
    pub(super) fn publish(shared: &'a Shared<'a>, worker: usize) -> ContextEntry<'a> {
        let ctx = z3::Context::thread_local().get_z3_context().as_ptr() as usize;
        shared.contexts()[worker] = Some(ctx);
        ContextEntry { shared, worker }
    }
}

impl Drop for ContextEntry<'_> {
    fn drop(&mut self) {
        self.shared.contexts()[self.worker] = None;
    }
}

pub(super) enum Cmd {
    /// Houdini: check these units (owned by the worker) under the assignment.
    Round(Arc<Assignment>, Vec<usize>),
    /// Asynchronous Houdini: the newest assignment and its version; check the worker's unit
    /// under it until a check refutes nothing.
    Async(usize, Arc<Assignment>),
    /// Asynchronous Houdini is over.
    Stop,
}

pub(super) enum Msg {
    /// Program-level encoding failed (sent once per worker).
    Invalid(Vec<Diagnostic>),
    /// Unit taken by a worker and prepared: Err for input errors.
    Built {
        worker: usize,
        unit: usize,
        mentions: Result<HashSet<Name>, Vec<Diagnostic>>,
    },
    /// No more units to take; the notes of the program encoding.
    Taken {
        notes: Vec<Diagnostic>,
    },
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
