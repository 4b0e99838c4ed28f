//! What a running verification tells an observer while it works, and how long the solver took.
//!
//! `kivl verify` draws a progress line on a terminal (issue 22: a 300 s Houdini run printed
//! nothing) and, with `--time`, reports per-stage times as GPUVerify's `--time` does. Both
//! need to see the engine from outside without changing what it computes: the engine calls
//! an [`Observer`] (carried in [`crate::engine::VerifyOptions`]) at a few points (an
//! implementation built or checked, a Houdini round started), and every solver check adds its
//! duration to a process-wide clock ([`solver_time`]). An observer must be cheap: it is called
//! from the coordinating thread between solver calls.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One thing the engine reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress<'a> {
    /// The engine starts on `impls` implementations (with Houdini first when `houdini`).
    Started { impls: usize, houdini: bool },
    /// Implementation `name`'s VC was built (and, without Houdini, is being checked).
    Built { name: &'a str, done: usize, total: usize },
    /// Implementation `name` has its verdict.
    Checked { name: &'a str, done: usize, total: usize },
    /// A Houdini round starts (asynchronous Houdini: the assignment changed): `left` of the
    /// `candidates` are still assumed, `impls` implementations are checked.
    Round { round: usize, left: usize, candidates: usize, impls: usize },
    /// The engine has its results.
    Finished,
}

type Callback = dyn Fn(&Progress) + Send + Sync;

/// Receives the engine's [`Progress`]; the default observes nothing. Its `Debug` form is
/// constant, so that options differing only in their observer hash alike (`kivl verify
/// --cache` keys on the options' `Debug` form).
#[derive(Clone, Default)]
pub struct Observer(Option<Arc<Callback>>);

impl Observer {
    pub fn new(f: impl Fn(&Progress) + Send + Sync + 'static) -> Observer {
        Observer(Some(Arc::new(f)))
    }

    /// Tells the observer, if there is one.
    pub fn notify(&self, p: Progress) {
        if let Some(f) = &self.0 {
            f(&p);
        }
    }
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

/// Nanoseconds spent in solver checks by this process, summed over threads.
static SOLVER_NANOS: AtomicU64 = AtomicU64::new(0);

/// The time this process has spent in solver checks, summed over solver threads (with several
/// threads it can exceed the wall-clock time).
pub fn solver_time() -> Duration {
    Duration::from_nanos(SOLVER_NANOS.load(Ordering::Relaxed))
}

/// Adds the time from its creation to its drop to [`solver_time`].
pub(crate) struct SolverClock(Instant);

impl SolverClock {
    pub(crate) fn start() -> SolverClock {
        SolverClock(Instant::now())
    }
}

impl Drop for SolverClock {
    fn drop(&mut self) {
        SOLVER_NANOS.fetch_add(self.0.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn an_observer_sees_what_it_is_told_and_the_default_sees_nothing() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let o = Observer::new(move |p| s.lock().unwrap().push(format!("{p:?}")));
        o.notify(Progress::Started { impls: 2, houdini: true });
        o.notify(Progress::Finished);
        Observer::default().notify(Progress::Finished);
        assert_eq!(*seen.lock().unwrap(), vec!["Started { impls: 2, houdini: true }", "Finished"]);
        assert_eq!(format!("{o:?}"), format!("{:?}", Observer::default()));
    }

    #[test]
    fn the_solver_clock_adds_its_lifetime() {
        let before = solver_time();
        {
            let _c = SolverClock::start();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(solver_time() >= before + Duration::from_millis(5));
    }
}
