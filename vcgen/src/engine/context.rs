//! A Z3 context of its own for every unit of work (one implementation, or one share of it).
//!
//! Why: Z3's search depends on everything its context holds (declarations, the order terms
//! were made in, other solvers' terms). When a worker thread kept one context for every
//! implementation it took, the verdict of an implementation depended on which others the same
//! worker had checked before, so on `--jobs` (issue 23: the verified count of the corpus's
//! `SobelShared.bpl` differed between `--jobs 1` and `--jobs 2`). Each unit now makes its own
//! context, encodes the program in it and keeps it for as long as it lives; the worker that
//! runs the unit *enters* that context ([`in_context`]) for every Z3 call of the unit, so what
//! Z3 is asked for one implementation is the same whatever the schedule.
//!
//! The z3 crate makes the current context a thread-local and lets a closure run with another
//! one (`z3::with_z3_context`), asking the closure to be `Send + Sync` so that Z3 objects of one
//! context cannot be smuggled into another thread's. Here the closure runs on the calling
//! thread and the unit's objects never leave it (a unit stays with the worker that built it),
//! so [`OnThisThread`] vouches for that bound.

use z3::Context;

/// A value that stays on the thread that made it, passed where the z3 crate asks for
/// `Send + Sync` only to keep Z3 objects from crossing threads.
struct OnThisThread<T>(T);

// SAFETY: an `OnThisThread` is made and consumed on the same thread within one call of
// `z3::with_z3_context` (which runs its closure synchronously, on the calling thread); the
// value is never shared with or sent to another thread.
unsafe impl<T> Send for OnThisThread<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for OnThisThread<T> {}

impl<T> OnThisThread<T> {
    fn into_inner(self) -> T {
        self.0
    }
}

/// The configuration of every Z3 context: with models, which failure reports read.
pub(super) fn z3_config() -> z3::Config {
    let mut cfg = z3::Config::new();
    cfg.set_model_generation(true);
    cfg
}

/// A new Z3 context with kivl's configuration (models on, which failure reports read).
pub(super) fn fresh_context() -> Context {
    z3::with_z3_config(&z3_config(), || OnThisThread(Context::thread_local())).into_inner()
}

/// Runs `f` with `ctx` as the thread's current Z3 context (every term, solver and watchdog
/// registration that `f` makes is in `ctx`).
pub(super) fn in_context<R>(ctx: &Context, f: impl FnOnce() -> R) -> R {
    let f = OnThisThread(f);
    z3::with_z3_context(ctx, move || OnThisThread(f.into_inner()())).into_inner()
}
