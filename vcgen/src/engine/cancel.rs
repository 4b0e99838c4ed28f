//! A stop from outside a run: the caller of [`super::verify_program`] no longer needs its result
//! (the driver's speculative second search, when the first one verified). Cancelling interrupts
//! every solver check of the run, running or started later ([`crate::watchdog::cancel`] on each
//! context its workers publish), so each check returns at once as inconclusive and the run
//! ends soon with a result the caller throws away.
//!
//! The handle also counts the run's solver checks ([`Cancel::checks`]): a caller who throws the
//! result away takes them back from the process's count (`crate::solver::discount`).
//!
//! Why a handle of its own rather than a flag the engine polls: a Z3 check can run for the whole
//! time limit, and only `Z3_interrupt` on its context ends it early.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Shared by the caller, who may [`Cancel::cancel`], and the run's workers, who register the
/// Z3 context of each unit they run ([`Cancel::enter`], [`Cancel::leave`]).
#[derive(Debug, Default)]
pub struct Cancel {
    cancelled: AtomicBool,
    /// The raw `Z3_context`s of the units being run.
    contexts: Mutex<Vec<usize>>,
    /// The run's solver checks.
    checks: Arc<AtomicUsize>,
}

impl Cancel {
    /// Stops the run: every registered context and every one registered later is cancelled.
    pub fn cancel(&self) {
        let contexts = self.lock();
        self.cancelled.store(true, Ordering::SeqCst);
        for &ctx in contexts.iter() {
            crate::watchdog::cancel(ctx);
        }
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// The solver checks the run has made so far.
    pub fn checks(&self) -> usize {
        self.checks.load(Ordering::Relaxed)
    }

    /// Where the run's solvers count their checks (`crate::solver::VcSolver::counting_in`).
    pub(super) fn counter(&self) -> Arc<AtomicUsize> {
        self.checks.clone()
    }

    /// A worker runs a unit in context `ctx` (alive until [`Cancel::leave`]).
    pub(super) fn enter(&self, ctx: usize) {
        let mut contexts = self.lock();
        contexts.push(ctx);
        if self.is_cancelled() {
            crate::watchdog::cancel(ctx);
        }
    }

    /// The worker leaves context `ctx`; the caller then ends its cancellation
    /// ([`crate::watchdog::uncancel`]), after this, so that no cancel comes in between.
    pub(super) fn leave(&self, ctx: usize) {
        self.lock().retain(|c| *c != ctx);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<usize>> {
        self.contexts.lock().unwrap_or_else(|e| e.into_inner())
    }
}
