//! A process-wide thread that interrupts Z3 checks still running after their deadline.
//!
//! Why: Z3's `timeout` parameter is a timer inside the check that Z3 arms itself; some checks
//! (seen in error enumeration on Boogie's `havoc0/KeyboardClassUnload.bpl`) ran minutes past
//! it, and in Z3 4.8.12 its pool of timer threads can make one thread's check wait for another
//! thread's (see `crate::solver`), so kivl does not set it. `--timeout` is a promise to the
//! user: each check is registered here with its deadline, and the watchdog calls `Z3_interrupt` on its context when the deadline passes
//! (and again every [`REPEAT`] until the check returns: an interrupt that lands between two of
//! Z3's internal phases can be lost).
//!
//! A check registers with [`watch`]; the returned [`Watch`] withdraws it when dropped, under
//! the same lock under which the watchdog interrupts, so a context is never interrupted after
//! its check has returned.
//!
//! The watchdog also stops checks on request ([`cancel`], `--stop-at-first-error`'s stop of
//! the implementations after an error): one `Z3_interrupt` is lost when it comes before the
//! check has entered Z3 (a check about to start when the stop is decided ran to its time
//! limit), so a cancelled context stays cancelled until [`uncancel`]: each check registered on
//! it, already running or started later, is interrupted at once and again every [`REPEAT`].
//!
//! Z3 4.8.12 does not always listen: on that file a check ran 100 s past `-t:10000` in the z3
//! binary too, deaf to the interrupt flag. A thread inside Z3 cannot be stopped from outside, so
//! when a check is still running [`STUCK_AFTER`] past its deadline the watchdog calls the
//! process's [`on_stuck`] handler once: the command line reports that no verdict could be
//! reached and exits (status 3, inconclusive), which is the only way to keep `--timeout`.

use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// How often an expired check is interrupted again while it has not returned.
const REPEAT: Duration = Duration::from_millis(200);

/// How long after its deadline a check that has not returned counts as stuck.
pub const STUCK_AFTER: Duration = Duration::from_secs(5);

type StuckHandler = Box<dyn Fn(Duration) + Send + Sync>;

static ON_STUCK: OnceLock<StuckHandler> = OnceLock::new();

/// Sets what happens when a check is stuck (once per process; later calls are ignored). The
/// handler gets the check's time limit. Without a handler the check is only interrupted again
/// and again (a long-lived process, such as the language server, keeps running).
pub fn on_stuck(handler: impl Fn(Duration) + Send + Sync + 'static) {
    let _ = ON_STUCK.set(Box::new(handler));
}

struct Entry {
    id: u64,
    /// The raw `Z3_context` of the thread running the check.
    ctx: usize,
    /// When the check's time is over (`None`: no time limit).
    deadline: Option<Instant>,
    /// The check's time limit (reported if it gets stuck).
    limit: Duration,
    /// Whether [`on_stuck`]'s handler has been called for this check.
    reported: bool,
    /// Its context was cancelled ([`cancel`]): interrupted whatever the deadline, never
    /// reported as stuck (it was not given a time limit that it overran).
    cancelled: bool,
}

#[derive(Default)]
struct Table {
    next_id: u64,
    entries: Vec<Entry>,
    /// The contexts cancelled until further notice ([`cancel`], [`uncancel`]).
    cancelled: Vec<usize>,
}

struct Watchdog {
    table: Mutex<Table>,
    changed: Condvar,
}

fn watchdog() -> &'static Watchdog {
    static DOG: OnceLock<&'static Watchdog> = OnceLock::new();
    DOG.get_or_init(|| {
        let dog: &'static Watchdog =
            Box::leak(Box::new(Watchdog { table: Mutex::new(Table::default()), changed: Condvar::new() }));
        std::thread::Builder::new()
            .name("z3-watchdog".into())
            .spawn(move || run(dog))
            .expect("cannot start the Z3 watchdog thread");
        dog
    })
}

impl Watchdog {
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn run(dog: &'static Watchdog) {
    let mut table = dog.lock();
    loop {
        let now = Instant::now();
        let mut wait = Duration::from_secs(3600);
        for e in table.entries.iter_mut() {
            let expired = e.deadline.is_some_and(|d| d <= now);
            if !e.reported && !e.cancelled && e.deadline.is_some_and(|d| d + STUCK_AFTER <= now) {
                e.reported = true;
                if let Some(handler) = ON_STUCK.get() {
                    handler(e.limit);
                }
            }
            if e.cancelled || expired {
                interrupt(e.ctx);
                wait = wait.min(REPEAT);
            } else if let Some(d) = e.deadline {
                wait = wait.min(d - now);
            }
        }
        table = dog.changed.wait_timeout(table, wait).unwrap_or_else(|e| e.into_inner()).0;
    }
}

/// `Z3_interrupt` on the context of a registered check (the caller holds the table's lock).
fn interrupt(ctx: usize) {
    if let Some(ctx) = std::ptr::NonNull::new(ctx as *mut _) {
        // SAFETY: an entry exists only while its check runs on a live context (the `Watch` is
        // dropped, under the table's lock, before the check returns), and `Z3_interrupt` may
        // be called from any thread.
        unsafe { z3_sys::Z3_interrupt(ctx) };
    }
}

/// A registered check; dropping it withdraws the registration.
pub struct Watch {
    id: u64,
}

/// Registers the check about to run on this thread's Z3 context, to be interrupted at
/// `deadline`; `limit` is the time limit it was given.
pub fn watch(deadline: Instant, limit: Duration) -> Watch {
    register(Some(deadline), limit)
}

/// Registers the check about to run on this thread's Z3 context without a time limit: it is
/// interrupted only if its context is cancelled ([`cancel`]).
pub fn watch_unlimited() -> Watch {
    register(None, Duration::ZERO)
}

fn register(deadline: Option<Instant>, limit: Duration) -> Watch {
    let ctx = z3::Context::thread_local().get_z3_context().as_ptr() as usize;
    let dog = watchdog();
    let mut table = dog.lock();
    table.next_id += 1;
    let id = table.next_id;
    let cancelled = table.cancelled.contains(&ctx);
    table.entries.push(Entry { id, ctx, deadline, limit, reported: false, cancelled });
    dog.changed.notify_one();
    Watch { id }
}

/// Stops every check on Z3 context `ctx` (a raw `Z3_context`), running or started later, until
/// [`uncancel`]: each is interrupted at once and again every [`REPEAT`] until it returns. The
/// caller keeps the context alive until it calls [`uncancel`].
pub fn cancel(ctx: usize) {
    let dog = watchdog();
    let mut table = dog.lock();
    if !table.cancelled.contains(&ctx) {
        table.cancelled.push(ctx);
    }
    for e in table.entries.iter_mut().filter(|e| e.ctx == ctx) {
        e.cancelled = true;
    }
    dog.changed.notify_one();
}

/// Ends [`cancel`] of context `ctx` (before the context is dropped: another one may be made at
/// the same address).
pub fn uncancel(ctx: usize) {
    let mut table = watchdog().lock();
    table.cancelled.retain(|c| *c != ctx);
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut table = watchdog().lock();
        table.entries.retain(|e| e.id != self.id);
    }
}
