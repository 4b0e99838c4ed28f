//! Asynchronous Houdini, for fewer implementations than threads (`--split-vc`, `--portfolio`):
//! each implementation is checked by several units at once, without rounds. With `split_vc`
//! each unit owns a disjoint share of the goals, dealt by candidate ([`crate::houdini::deal`]),
//! assumes the others and every surviving candidate, and the fixpoint is reached when every
//! share holds under the same assignment (issue 23's "disjoint shares"). A refutation reaches
//! the other shares at once; one that has been checking for much longer than the refuting
//! check is interrupted and restarts under the new assignment
//! ([`AsyncSearch::interrupt_stale`]). A real failure stops the search, and every unit then
//! enumerates the failures of its share under that assignment in parallel
//! ([`AsyncSearch::enumerate`]; racers divide the VC for this as `split_vc` does). In
//! a race (`portfolio`) each unit checks the whole VC with its own
//! Z3 configuration ([`crate::solver::RACERS`]), the first proof under the current assignment
//! ends the race and the others are interrupted. Each unit checks under the newest assignment
//! it knows and every refutation goes to the others as soon as it is found: refutation is
//! monotone, so one found under an older, larger assignment still holds, and a unit waits only
//! when its check refuted nothing. The workers' side is [`async_unit`], the coordinator's
//! [`async_fixpoint`]; what a check's result means is [`crate::houdini::Search::apply`].

use super::outcome::crash_reason;
use super::pool::{Cmd, Driver, Msg, Running, Shared};
use super::unit::ImplState;
use crate::houdini::{share_of, Assignment, HoudiniStats, ImplRound, Part, Search, Step, STOPPED_ELSEWHERE};
use ivl::ast::Name;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use z3::ast::Bool;

/// The assertions unit `unit` checks: with `split_vc`, its disjoint share ([`share_asserts`]);
/// in a race, all.
fn unit_asserts(shared: &Shared, unit: usize, state: &ImplState) -> Option<Vec<usize>> {
    (!shared.race).then(|| share_asserts(shared, unit, state))
}

/// Unit `unit`'s disjoint share of its implementation's assertions, dealt by candidate
/// ([`crate::houdini::deal`]): what it checks with `split_vc`, and where it looks for failures
/// after a real one, in either mode ([`enumerate_share`]).
fn share_asserts(shared: &Shared, unit: usize, state: &ImplState) -> Vec<usize> {
    let guards = state.solver.vc.asserts.iter().map(|a| a.guard.as_ref());
    share_of(guards, shared.share, unit % shared.share)
}

/// One unit of asynchronous Houdini (the coordinator's side is [`async_fixpoint`]): the worker
/// checks its assertions (with `split_vc`, its share; the others are assumed) a Houdini round
/// at a time, under the newest assignment it knows (the coordinator's, less its own
/// refutations not yet echoed back), sends each round's result at once, and waits for a new
/// assignment only when a round refuted nothing. Refutation is monotone, so a refutation found
/// under an older (larger) assignment is still one under the newer: the units never wait for
/// each other. A real failure ends Houdini (Boogie's abort), with the failures of the whole VC
/// under that assignment, as a one-thread round reports them ([`crate::houdini::round`]).
/// `at` is the worker and its unit.
pub(super) fn async_unit(
    shared: &Shared,
    at: (usize, usize),
    state: &ImplState,
    cands: &[(Name, Bool)],
    first: (usize, Arc<Assignment>),
    commands: &Receiver<Cmd>,
    send: &dyn Fn(Msg),
) {
    /// Counts the worker in [`Shared::active`] while it is in the loop (also when it unwinds).
    struct Active<'a>(&'a AtomicUsize);
    impl Drop for Active<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }
    shared.active.fetch_add(1, Ordering::SeqCst);
    let _active = Active(&shared.active);
    let (worker, unit) = at;
    let only = unit_asserts(shared, unit, state);
    // Whole rounds, as on one thread, or one failure at a time (`Racer::each_failure`).
    let each = shared.race && crate::solver::racer(shared.racer(unit) as usize).each_failure;
    let part = Part { asserts: only.as_deref(), one_failure: each };
    let (mut version, mut base) = first;
    let mut mine: Vec<Name> = Vec::new();
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let mut a = (*base).clone();
        for c in &mine {
            a.insert(c.clone(), false);
        }
        let check = || state.houdini_round(cands, &a, shared.opts.error_limit, part);
        let ((round, checks), interrupted) = shared.running(worker, Running::Search(version), check);
        mine.extend(round.refuted.iter().cloned());
        let waits = !round.refutes_only();
        send(Msg::Async { unit, round, checks, version, used: a, interrupted });
        match next_command(commands, waits, &mut version, &mut base) {
            Next::Check => {}
            Next::Enumerate(a) => return enumerate_share(shared, at, state, cands, &a, send),
            Next::Leave => return,
        }
    }
}

/// What a unit of asynchronous Houdini does after a check ([`next_command`]).
enum Next {
    /// Check again, under the newest assignment.
    Check,
    /// Report its share's failures under this assignment ([`enumerate_share`]), then leave.
    Enumerate(Arc<Assignment>),
    /// Houdini is over.
    Leave,
}

/// Reads the unit's commands (waiting for one if `wait`), keeping the newest assignment.
fn next_command(commands: &Receiver<Cmd>, wait: bool, version: &mut usize, base: &mut Arc<Assignment>) -> Next {
    let mut read = |cmd: Cmd| match cmd {
        Cmd::Async(v, b) => {
            (*version, *base) = (v, b);
            None
        }
        Cmd::Enumerate(a) => Some(Next::Enumerate(a)),
        Cmd::Round(..) | Cmd::Stop => Some(Next::Leave),
    };
    if wait {
        match commands.recv() {
            Ok(cmd) => {
                if let Some(next) = read(cmd) {
                    return next;
                }
            }
            Err(_) => return Next::Leave,
        }
    }
    loop {
        match commands.try_recv() {
            Ok(cmd) => {
                if let Some(next) = read(cmd) {
                    return next;
                }
            }
            Err(TryRecvError::Empty) => return Next::Check,
            Err(TryRecvError::Disconnected) => return Next::Leave,
        }
    }
}

/// The failures of unit `unit`'s share under `a` (the assignment under which a unit found a
/// real failure, [`Cmd::Enumerate`]), found in parallel with the other shares', as the
/// failures of the whole VC would be on one thread. In a race too: the racers then divide the
/// VC as `split_vc` does. `at` is the worker and its unit.
pub(super) fn enumerate_share(
    shared: &Shared,
    at: (usize, usize),
    state: &ImplState,
    cands: &[(Name, Bool)],
    a: &Assignment,
    send: &dyn Fn(Msg),
) {
    let (worker, unit) = at;
    let only = share_asserts(shared, unit, state);
    let part = Part { asserts: Some(&only), one_failure: false };
    let check = || state.houdini_round(cands, a, shared.opts.error_limit, part);
    let ((round, checks), _) = shared.running(worker, Running::Enumerate, check);
    send(Msg::Enumerated { unit, round, checks });
}

/// Asynchronous Houdini's coordinator ([`async_unit`] is the workers' side), for an
/// implementation checked by several units: with `split_vc` each unit owns a share of the
/// assertions, in a race (`portfolio`) each checks them all as its racer does
/// ([`crate::solver::RACERS`]: its own Z3 configuration, whole rounds or one failure at a
/// time). Each refutation is applied as soon as a unit reports it, and the new assignment goes
/// to every unit of an implementation not yet settled: a unit busy with an older assignment
/// picks it up at its next check, an idle one starts again.
///
/// The greatest fixpoint is reached when every implementation holds under the current
/// assignment — with `split_vc`, every share reported its assertions valid under it; in a
/// race, one unit reported the whole VC valid (the others are then interrupted) — or was
/// settled otherwise: by a real failure, a timeout (of every unit, in a race) or a lost worker.
/// A real failure stops the search (Boogie's abort): the assignment is kept from then on, and
/// the implementations still open are checked under it without refuting (Boogie's flush), as
/// in [`crate::houdini::fixpoint`]. Returns the statistics and each implementation's last
/// round, as [`crate::houdini::fixpoint`] does.
pub(super) fn async_fixpoint(d: Driver) -> (HoudiniStats, Vec<Option<ImplRound>>) {
    let mut run = AsyncSearch::new(d);
    run.broadcast((0..run.units()).collect());
    while run.open() {
        let Ok(msg) = run.d.inbox.recv() else { break };
        match msg {
            Msg::Async { unit, round, checks, version, used, interrupted } => {
                run.checked(unit, round, checks, (version, &used), interrupted)
            }
            Msg::Enumerated { unit, round, checks } => run.enumerated(unit, round, checks),
            Msg::Crashed { worker, message } => run.lost(worker, message),
            _ => {}
        }
        run.wake_idle();
    }
    stop_units(run.d.shared, run.d.to_workers);
    run.finish()
}

/// What [`async_fixpoint`] knows of each unit.
struct AsyncUnits {
    /// Its last check held, under the current assignment (or one that differs only in
    /// candidates its implementation does not mention).
    valid: Vec<bool>,
    /// The version of the last assignment sent to it.
    sent: Vec<usize>,
    /// It is checking, or will check once it reads its commands.
    busy: Vec<bool>,
    /// It timed out: not checked again.
    given_up: Vec<bool>,
    /// When its current check began, as far as the coordinator knows (when its last result
    /// came, or when it was woken).
    since: Vec<Instant>,
}

/// Disjoint shares stopped at a real failure: the other shares' failures under that
/// assignment are being gathered ([`AsyncSearch::enumerate`]).
struct Enumeration {
    /// The round that found the real failure.
    first: ImplRound,
    /// The units whose failures have not come yet.
    waiting: Vec<usize>,
    /// The failures of the shares that answered.
    errors: Vec<ivl::diag::Diagnostic>,
}

/// With disjoint shares, a check that has run this much longer than the one that just refuted
/// a candidate it assumes (twice as long, and this much more) is interrupted and restarted
/// under the new assignment ([`AsyncSearch::interrupt_stale`]).
const STALE_AFTER: Duration = Duration::from_millis(200);

/// The state of [`async_fixpoint`]: the search, the units, and the implementations settled.
struct AsyncSearch<'a, 'b> {
    d: Driver<'a, 'b>,
    search: Search,
    /// The assignment's version: how many times it changed.
    version: usize,
    u: AsyncUnits,
    /// Per implementation: the round that settled it (a failure, a timeout, a lost worker).
    settled: Vec<Option<ImplRound>>,
    /// Per implementation: the failures being gathered after a stop, with disjoint shares.
    enumerating: Vec<Option<Enumeration>>,
}

impl<'a, 'b> AsyncSearch<'a, 'b> {
    fn new(d: Driver<'a, 'b>) -> Self {
        let units = d.shared.impls.len() * d.shared.share;
        let mut search = Search::starting(d.shared.candidates, d.shared.start_false);
        search.stats.rounds = 1;
        let u = AsyncUnits {
            valid: vec![false; units],
            sent: vec![0; units],
            busy: vec![false; units],
            given_up: vec![false; units],
            since: vec![Instant::now(); units],
        };
        let n = d.shared.impls.len();
        let settled = vec![None; n];
        let enumerating = (0..n).map(|_| None).collect();
        AsyncSearch { d, search, version: 0, u, settled, enumerating }
    }

    fn units(&self) -> usize {
        self.u.valid.len()
    }

    /// The units of implementation `i`.
    fn of(&self, i: usize) -> std::ops::Range<usize> {
        i * self.d.shared.share..(i + 1) * self.d.shared.share
    }

    /// Implementation `i` holds under the current assignment: every share, or one racer.
    fn holds(&self, i: usize) -> bool {
        let mut of_i = self.of(i).map(|k| self.u.valid[k]);
        if self.d.shared.race {
            of_i.any(|v| v)
        } else {
            of_i.all(|v| v)
        }
    }

    /// Implementation `i` is still searched: neither settled nor gathering failures.
    fn searched(&self, i: usize) -> bool {
        self.settled[i].is_none() && self.enumerating[i].is_none()
    }

    /// The shares of an implementation are disjoint (`split_vc`), not racers.
    fn disjoint(&self) -> bool {
        self.d.shared.share > 1 && !self.d.shared.race
    }

    /// The worker of unit `unit`, if it is still alive.
    fn alive_owner(&self, unit: usize) -> Option<usize> {
        self.d.owner[unit].filter(|w| !self.d.crashed.contains(w))
    }

    /// Some implementation is neither settled nor holds.
    fn open(&self) -> bool {
        (0..self.settled.len()).any(|i| self.settled[i].is_none() && !self.holds(i))
    }

    /// Sends the current assignment to `units` (those whose worker is still alive).
    fn broadcast(&mut self, units: Vec<usize>) {
        let current = Arc::new(self.search.assignment.clone());
        for unit in units {
            if let Some(w) = self.alive_owner(unit) {
                if self.d.to_workers[w].send(Cmd::Async(self.version, current.clone())).is_ok() {
                    self.u.sent[unit] = self.version;
                    if !self.u.busy[unit] {
                        self.u.since[unit] = Instant::now();
                    }
                    self.u.busy[unit] = true;
                }
            }
        }
    }

    /// A unit's check under assignment `used` (derived from the assignment of version
    /// `used_version`) came back; `interrupted`: we interrupted it, so an inconclusive result
    /// is not a timeout.
    fn checked(
        &mut self,
        unit: usize,
        round: ImplRound,
        checks: usize,
        (used_version, used): (usize, &Assignment),
        interrupted: bool,
    ) {
        self.search.stats.checks += checks;
        let i = unit / self.d.shared.share;
        self.u.busy[unit] = round.refutes_only() || used_version < self.u.sent[unit];
        let took = self.u.since[unit].elapsed();
        self.u.since[unit] = Instant::now();
        if !self.searched(i) {
            return;
        }
        if !interrupted {
            self.search.stats.note_limit(&round);
        }
        match self.search.apply(&round, used) {
            Step::Stop => self.enumerate(unit, round, used, interrupted),
            Step::Unsettled => self.settled[i] = Some(round),
            Step::GiveUp => self.give_up(unit, round, interrupted),
            Step::Refuted(newly) => {
                self.refuted(&newly);
                self.interrupt_stale(unit, took, &newly);
            }
            Step::Holds => self.holds_now(unit),
            Step::Nothing => {}
        }
    }

    /// A unit's check was inconclusive without refuting anything.
    fn give_up(&mut self, unit: usize, round: ImplRound, interrupted: bool) {
        let i = unit / self.d.shared.share;
        // Interrupted by us (its implementation held, or its assignment is stale, and it has
        // the new one): not given up.
        if interrupted {
            return;
        }
        // A timeout: not checked again (Boogie's black list). In a race, the implementation is
        // given up when every unit has.
        self.u.given_up[unit] = true;
        if !self.d.shared.race || self.of(i).all(|k| self.u.given_up[k]) {
            self.settled[i] = Some(round);
        }
    }

    /// Candidates were refuted: the units that mention them no longer hold, and every unit
    /// still in the search gets the new assignment.
    fn refuted(&mut self, newly: &[Name]) {
        let share = self.d.shared.share;
        for (k, v) in self.u.valid.iter_mut().enumerate() {
            if newly.iter().any(|c| self.d.mentions[k / share].contains(c)) {
                *v = false;
            }
        }
        self.version += 1;
        let a = &self.search.assignment;
        self.d.shared.opts.observer.notify(crate::progress::Progress::Round {
            round: self.version + 1,
            left: a.values().filter(|v| **v).count(),
            candidates: a.len(),
            impls: self.settled.iter().filter(|s| s.is_none()).count(),
        });
        let to: Vec<usize> = (0..self.units()).filter(|k| self.searched(k / share) && !self.u.given_up[*k]).collect();
        self.broadcast(to);
    }

    /// Disjoint shares: unit `from` refuted `newly` in a check that took `took`. Every other
    /// unit that assumes one of them and has been checking for much longer than that (twice,
    /// and [`STALE_AFTER`] more) is interrupted: it has the new assignment already
    /// ([`AsyncSearch::refuted`]) and most likely is proving its share under the old one, which
    /// would not count ([`Search::apply`]); it restarts at once under the new one. A check that
    /// refuted something before the interrupt keeps its refutations (they hold under any smaller
    /// assignment). When to interrupt depends on timing; the fixpoint does not.
    fn interrupt_stale(&mut self, from: usize, took: Duration, newly: &[Name]) {
        if !self.disjoint() {
            return;
        }
        let share = self.d.shared.share;
        let patience = took * 2 + STALE_AFTER;
        let stale: Vec<usize> = (0..self.units())
            .filter(|&k| k != from && self.searched(k / share))
            .filter(|&k| newly.iter().any(|c| self.d.mentions[k / share].contains(c)))
            // Busy since before the new assignment was sent (not woken by it) and for long.
            .filter(|&k| self.u.busy[k] && !self.u.given_up[k] && self.u.since[k].elapsed() >= patience)
            .filter_map(|k| self.alive_owner(k))
            .collect();
        // Only a check under an older assignment than the one just sent.
        let version = self.version;
        for w in stale {
            self.d.shared.interrupt_if(w, |c| matches!(c, Running::Search(v) if v < version));
        }
    }

    /// Unit `unit` found a real failure under `used`, which stops Houdini (Boogie's abort).
    /// Its implementation's failures are those of every share under `used` (the one-thread
    /// search enumerates the whole VC's under it): every other unit is interrupted and asked
    /// for its share's failures, which they find at the same time ([`enumerate_share`]). With
    /// disjoint shares `unit`'s round has its own share's already, unless we interrupted it; a
    /// racer checked the whole VC, up to one failure or the error limit, and takes a share too
    /// unless it found as many failures as the limit allows.
    fn enumerate(&mut self, unit: usize, first: ImplRound, used: &Assignment, interrupted: bool) {
        let i = unit / self.d.shared.share;
        let limit = self.d.shared.opts.error_limit.max(1);
        let has_own = if self.disjoint() { !interrupted } else { first.errors.len() >= limit };
        // A racer with as many failures as the limit allows leaves nothing to find.
        let asked = |k: usize| if self.d.shared.race { !has_own } else { k != unit || !has_own };
        let asked: Vec<usize> = self.of(i).filter(|&k| asked(k)).collect();
        let a = Arc::new(used.clone());
        let mut waiting = Vec::new();
        for k in asked {
            let Some(w) = self.alive_owner(k) else { continue };
            if self.d.to_workers[w].send(Cmd::Enumerate(a.clone())).is_ok() {
                waiting.push(k);
                // Its search check, not the enumeration it is asked for.
                self.d.shared.interrupt_if(w, |c| matches!(c, Running::Search(_)));
            }
        }
        self.enumerating[i] = Some(Enumeration { first, waiting, errors: Vec::new() });
        self.gathered(i);
    }

    /// A share's failures under the assignment of a stop ([`AsyncSearch::enumerate`]).
    fn enumerated(&mut self, unit: usize, round: ImplRound, checks: usize) {
        self.search.stats.checks += checks;
        let i = unit / self.d.shared.share;
        if let Some(e) = &mut self.enumerating[i] {
            e.waiting.retain(|&k| k != unit);
            e.errors.extend(round.errors);
        }
        self.gathered(i);
    }

    /// Once every share of implementation `i` has answered, its failures are settled: those of
    /// the stopping round and of every share, each once, in source order, up to the error
    /// limit (the stopping round's are real, so there is at least one).
    fn gathered(&mut self, i: usize) {
        if self.enumerating[i].as_ref().is_none_or(|e| !e.waiting.is_empty()) {
            return;
        }
        let Some(Enumeration { mut first, errors, .. }) = self.enumerating[i].take() else { return };
        let mut all = std::mem::take(&mut first.errors);
        all.extend(errors);
        all.sort_by_key(|d| (d.primary.span.start, d.kind));
        let mut seen = crate::HashSet::default();
        all.retain(|d| seen.insert((d.primary.span, d.kind)));
        all.truncate(self.d.shared.opts.error_limit.max(1));
        first.errors = all;
        if self.settled[i].is_none() {
            self.settled[i] = Some(first);
        }
    }

    /// A unit proved its assertions under the current assignment.
    fn holds_now(&mut self, unit: usize) {
        self.u.valid[unit] = true;
        if self.d.shared.race {
            // The others of the race are checking what is settled now: stop them.
            // Their checks under this assignment or an older one; not a later one, should a
            // refutation elsewhere come first.
            let (i, version) = (unit / self.d.shared.share, self.version);
            for k in self.of(i).filter(|&k| k != unit && self.u.busy[k]) {
                if let Some(w) = self.alive_owner(k) {
                    self.d.shared.interrupt_if(w, |c| matches!(c, Running::Search(v) if v <= version));
                }
            }
        }
    }

    /// A worker crashed: its units' implementations are settled, inconclusive.
    fn lost(&mut self, worker: usize, message: String) {
        self.d.crashed.push(worker);
        *self.d.crash_message = message;
        let share = self.d.shared.share;
        for k in (0..self.units()).filter(|&k| self.d.owner[k] == Some(worker)) {
            // Gathering failures after a real one: the real one is reported.
            if let Some(e) = &mut self.enumerating[k / share] {
                e.waiting.retain(|&u| u != k);
                self.gathered(k / share);
                continue;
            }
            self.settled[k / share] = Some(ImplRound::inconclusive(crash_reason(self.d.crash_message)));
        }
    }

    /// An implementation still open whose units all wait (an interrupted unit, say) would
    /// never be checked again: give them the current assignment.
    fn wake_idle(&mut self) {
        let idle: Vec<usize> = (0..self.settled.len())
            .filter(|&i| self.searched(i) && !self.holds(i))
            .filter(|&i| self.of(i).all(|k| !self.u.busy[k]))
            .flat_map(|i| self.of(i).filter(|&k| !self.u.given_up[k]))
            .collect();
        if !idle.is_empty() {
            self.broadcast(idle);
        }
    }

    /// The statistics and each implementation's last round.
    fn finish(mut self) -> (HoudiniStats, Vec<Option<ImplRound>>) {
        let last = (0..self.settled.len())
            .map(|i| {
                self.settled[i].take().or_else(|| {
                    let reason = (!self.holds(i)).then(|| STOPPED_ELSEWHERE.to_string());
                    Some(ImplRound { inconclusive: reason, ..Default::default() })
                })
            })
            .collect();
        (self.search.finish(), last)
    }
}

/// Ends asynchronous Houdini: every worker is told to stop and, until it has left
/// [`async_unit`], its solver call is interrupted again and again (an interrupt sent between
/// two calls is lost).
fn stop_units(shared: &Shared, to_workers: &[Sender<Cmd>]) {
    shared.stop.store(true, Ordering::SeqCst);
    for tx in to_workers {
        let _ = tx.send(Cmd::Stop);
    }
    // Until every unit has left its loop (not until its solvers are dropped, which takes a
    // while and needs no interrupt).
    while shared.active.load(Ordering::SeqCst) > 0 {
        for w in 0..to_workers.len() {
            shared.interrupt(w);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
