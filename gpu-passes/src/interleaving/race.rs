//! Dynamic data-race detection (seed 000 Definition 3.1, docs/kbpl.md §7).
//!
//! Two accesses race when they are by distinct threads, touch the same location of a shared
//! variable, at least one writes, and no barrier separates them. A barrier only separates
//! threads of one group, and only for the memory it fences: `barrier {:local}` separates
//! group-shared accesses, `barrier {:global}` global ones. Threads of different groups are never
//! separated. Two writes of the same value are a benign race (seed 003) and are not reported
//! unless benign tolerance is off.
//!
//! An atomic access (`atomic x := op(A[i], …)`, docs/kbpl.md §3.4) races with a plain read or
//! write of the same location by another thread, and never with another atomic (GPUVerify's
//! meaning).
//!
//! Each storage slot (a global variable, or one group's copy of a group-shared one) keeps, per
//! location and per thread that accessed it, what the thread did in its current barrier interval
//! (compared against threads of the same group) and what it ever did (compared against threads
//! of other groups). Barrier intervals are epochs counted per group, so a barrier costs O(1).

use super::value::{MapKey, Value};
use ivl::ast::Span;
use rustc_hash::FxHashMap;

#[derive(Clone, Debug)]
pub enum Access {
    Read,
    Write(Value),
    Atomic,
}

/// The earlier access's kind, then the later one's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceKind {
    WriteWrite,
    ReadWrite,
    WriteRead,
    AtomicRead,
    AtomicWrite,
    ReadAtomic,
    WriteAtomic,
}

impl RaceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RaceKind::WriteWrite => "write-write",
            RaceKind::ReadWrite => "read-write",
            RaceKind::WriteRead => "write-read",
            RaceKind::AtomicRead => "atomic-read",
            RaceKind::AtomicWrite => "atomic-write",
            RaceKind::ReadAtomic => "read-atomic",
            RaceKind::WriteAtomic => "write-atomic",
        }
    }

    /// Whether the earlier access was a plain write / an atomic.
    fn first_writes(self) -> bool {
        matches!(self, RaceKind::WriteWrite | RaceKind::WriteRead | RaceKind::WriteAtomic)
    }
    fn first_atomic(self) -> bool {
        matches!(self, RaceKind::AtomicRead | RaceKind::AtomicWrite)
    }
}

/// One side of a race.
#[derive(Clone, Debug)]
pub struct RaceAccess {
    pub tid: u32,
    pub span: Span,
    pub write: bool,
    pub atomic: bool,
    pub value: Option<Value>,
}

#[derive(Clone, Debug)]
pub struct RaceReport {
    pub kind: RaceKind,
    /// Storage slot and the global variable it belongs to.
    pub slot: u32,
    pub var: u32,
    /// The location (`None`: the whole variable).
    pub key: Option<MapKey>,
    pub first: RaceAccess,
    pub second: RaceAccess,
}

#[derive(Clone, Debug, Default)]
struct Interval {
    read: Option<Span>,
    write: Option<(Value, Span)>,
    atomic: Option<Span>,
    /// Wrote two different values: any other write conflicts.
    mixed: bool,
}

impl Interval {
    fn record(&mut self, access: &Access, span: Span) {
        match access {
            Access::Read => {
                self.read.get_or_insert(span);
            }
            Access::Atomic => {
                self.atomic.get_or_insert(span);
            }
            Access::Write(v) => {
                if let Some((old, _)) = &self.write {
                    self.mixed |= old != v;
                }
                self.write = Some((v.clone(), span));
            }
        }
    }

    /// The conflict of a new access by another thread with this record.
    fn conflict(&self, access: &Access, benign: bool) -> Option<(RaceKind, Span, Option<Value>)> {
        match access {
            Access::Write(v) => {
                if let Some((w, sp)) = &self.write {
                    if !benign || self.mixed || w != v {
                        return Some((RaceKind::WriteWrite, *sp, Some(w.clone())));
                    }
                }
                self.read
                    .map(|sp| (RaceKind::ReadWrite, sp, None))
                    .or_else(|| self.atomic.map(|sp| (RaceKind::AtomicWrite, sp, None)))
            }
            Access::Read => self
                .write
                .as_ref()
                .map(|(w, sp)| (RaceKind::WriteRead, *sp, Some(w.clone())))
                .or_else(|| self.atomic.map(|sp| (RaceKind::AtomicRead, sp, None))),
            Access::Atomic => self
                .write
                .as_ref()
                .map(|(w, sp)| (RaceKind::WriteAtomic, *sp, Some(w.clone())))
                .or_else(|| self.read.map(|sp| (RaceKind::ReadAtomic, sp, None))),
        }
    }
}

#[derive(Clone, Debug)]
struct Rec {
    tid: u32,
    group: u32,
    epoch: u32,
    /// In the thread's current barrier interval (`epoch`).
    cur: Interval,
    /// Over the whole run (only for global memory, against other groups).
    ever: Interval,
}

#[derive(Clone, Debug, Default)]
struct SlotLog {
    keyed: FxHashMap<MapKey, Vec<Rec>>,
    whole: Vec<Rec>,
}

/// The access a thread's log holds for a variable in its current barrier interval (for the
/// specification built-ins `__read(A)`, `__write_offset(A)`, … of docs/kbpl.md §5.2). Like GPUVerify's
/// instrumentation, the log holds one access chosen nondeterministically among those made: here
/// uniformly at random (reservoir sampling, from the run's seed), so that many runs explore the
/// choices while each check costs O(1).
#[derive(Clone, Debug, Default)]
struct Trace {
    epoch: u32,
    reads: u64,
    writes: u64,
    read: Option<Value>,
    write: Option<Value>,
}

#[derive(Clone, Debug)]
pub struct RaceLog {
    /// The first race of the run. A race does not end a run (it is not a termination status of
    /// seed 000 Fig. 4), so the run goes on and may still end in divergence or a failure.
    pub first: Option<Box<RaceReport>>,
    /// Per thread, per variable: the accessed offsets (only when the program asks for them).
    traces: Option<Vec<FxHashMap<u32, Trace>>>,
    rng: super::rng::Rng,
    slots: Vec<SlotLog>,
    slot_var: Vec<u32>,
    slot_group_shared: Vec<bool>,
    local_epoch: Vec<u32>,
    global_epoch: Vec<u32>,
    thread_group: Vec<u32>,
    benign: bool,
}

impl RaceLog {
    /// `slot_var[s]`: the variable of storage slot `s`; `thread_group[t]`: the group of thread
    /// `t`.
    pub fn new(
        slot_var: Vec<u32>,
        slot_group_shared: Vec<bool>,
        thread_group: Vec<u32>,
        n_groups: usize,
        benign: bool,
    ) -> RaceLog {
        RaceLog {
            first: None,
            traces: None,
            rng: super::rng::Rng::new(0),
            slots: vec![SlotLog::default(); slot_var.len()],
            slot_var,
            slot_group_shared,
            local_epoch: vec![0; n_groups],
            global_epoch: vec![0; n_groups],
            thread_group,
            benign,
        }
    }

    /// Also keep, per thread, a logged access per variable (for `__read_offset(A)` and co.),
    /// chosen with randomness from `seed`.
    pub fn track_offsets(&mut self, seed: u64) {
        self.traces = Some(vec![FxHashMap::default(); self.thread_group.len()]);
        self.rng = super::rng::Rng::new(super::rng::mix(seed, 0x106));
    }

    /// The offset of the read (or write) of `var` in thread `tid`'s log for its current barrier
    /// interval; `None` when nothing is logged.
    pub fn logged(&self, tid: u32, var: u32, write: bool) -> Option<&Value> {
        let tr = self.traces.as_ref()?[tid as usize].get(&var)?;
        let gs = self.var_group_shared(var);
        if tr.epoch != self.epoch(gs, self.thread_group[tid as usize]) {
            return None;
        }
        if write {
            tr.write.as_ref()
        } else {
            tr.read.as_ref()
        }
    }

    fn var_group_shared(&self, var: u32) -> bool {
        self.slot_var.iter().position(|v| *v == var).is_some_and(|s| self.slot_group_shared[s])
    }

    fn trace(&mut self, slot: u32, key: &Option<MapKey>, tid: u32, write: bool) {
        let Some(MapKey::One(offset)) = key else { return };
        let var = self.slot_var[slot as usize];
        let epoch = self.epoch(self.slot_group_shared[slot as usize], self.thread_group[tid as usize]);
        let Some(traces) = &mut self.traces else { return };
        let tr = traces[tid as usize].entry(var).or_default();
        if tr.epoch != epoch {
            *tr = Trace { epoch, ..Trace::default() };
        }
        let (count, slot) = if write { (&mut tr.writes, &mut tr.write) } else { (&mut tr.reads, &mut tr.read) };
        *count += 1;
        if self.rng.below(*count) == 0 {
            *slot = Some(offset.clone());
        }
    }

    /// A barrier of group `g` completed with the given fences.
    pub fn barrier(&mut self, g: u32, local: bool, global: bool) {
        if local {
            self.local_epoch[g as usize] += 1;
        }
        if global {
            self.global_epoch[g as usize] += 1;
        }
    }

    fn epoch(&self, group_shared: bool, g: u32) -> u32 {
        if group_shared {
            self.local_epoch[g as usize]
        } else {
            self.global_epoch[g as usize]
        }
    }

    /// Logs an access; the first race of the run is kept in [`RaceLog::first`].
    pub fn record(&mut self, slot: u32, key: Option<MapKey>, tid: u32, access: Access, span: Span) {
        if let Err(r) = self.access(slot, key, tid, access, span) {
            self.first.get_or_insert(r);
        }
    }

    /// Logs an access by thread `tid`; reports the first conflicting earlier access.
    pub fn access(
        &mut self,
        slot: u32,
        key: Option<MapKey>,
        tid: u32,
        access: Access,
        span: Span,
    ) -> Result<(), Box<RaceReport>> {
        let group = self.thread_group[tid as usize];
        let gs = self.slot_group_shared[slot as usize];
        let me = Me { tid, group, epoch: self.epoch(gs, group), gs };
        let benign = self.benign;
        let var = self.slot_var[slot as usize];
        let report = |kind: RaceKind, other: u32, sp: Span, val: Option<Value>, key: &Option<MapKey>| {
            let first = RaceAccess {
                tid: other,
                span: sp,
                write: kind.first_writes(),
                atomic: kind.first_atomic(),
                value: val,
            };
            let value = match &access {
                Access::Write(v) => Some(v.clone()),
                Access::Read | Access::Atomic => None,
            };
            let second = RaceAccess {
                tid,
                span,
                write: matches!(access, Access::Write(_)),
                atomic: matches!(access, Access::Atomic),
                value,
            };
            Box::new(RaceReport { kind, slot, var, key: key.clone(), first, second })
        };
        if self.traces.is_some() && !matches!(access, Access::Atomic) {
            self.trace(slot, &key, tid, matches!(access, Access::Write(_)));
        }
        let log = &mut self.slots[slot as usize];
        if let Some((kind, other, sp, val)) = me.check(&log.whole, &access, benign) {
            return Err(report(kind, other, sp, val, &key));
        }
        match &key {
            Some(k) => {
                let recs = log.keyed.entry(k.clone()).or_default();
                if let Some((kind, other, sp, val)) = me.check(recs, &access, benign) {
                    return Err(report(kind, other, sp, val, &key));
                }
                me.update(recs, &access, span);
            }
            None => {
                for recs in log.keyed.values() {
                    if let Some((kind, other, sp, val)) = me.check(recs, &access, benign) {
                        return Err(report(kind, other, sp, val, &key));
                    }
                }
                me.update(&mut log.whole, &access, span);
            }
        }
        Ok(())
    }
}

struct Me {
    tid: u32,
    group: u32,
    epoch: u32,
    gs: bool,
}

impl Me {
    fn check(&self, recs: &[Rec], access: &Access, benign: bool) -> Option<(RaceKind, u32, Span, Option<Value>)> {
        for r in recs {
            if r.tid == self.tid {
                continue;
            }
            let interval = if r.group == self.group {
                if r.epoch != self.epoch {
                    continue; // a barrier separates them
                }
                &r.cur
            } else {
                &r.ever
            };
            if let Some((kind, sp, val)) = interval.conflict(access, benign) {
                return Some((kind, r.tid, sp, val));
            }
        }
        None
    }

    fn update(&self, recs: &mut Vec<Rec>, access: &Access, span: Span) {
        if self.gs {
            // Group-shared memory is only touched by one group: older intervals are dead.
            recs.retain(|r| r.epoch == self.epoch);
        }
        let rec = match recs.iter_mut().position(|r| r.tid == self.tid) {
            Some(i) => &mut recs[i],
            None => {
                recs.push(Rec {
                    tid: self.tid,
                    group: self.group,
                    epoch: self.epoch,
                    cur: Interval::default(),
                    ever: Interval::default(),
                });
                recs.last_mut().unwrap()
            }
        };
        if rec.epoch != self.epoch {
            rec.epoch = self.epoch;
            rec.cur = Interval::default();
        }
        rec.cur.record(access, span);
        if !self.gs {
            rec.ever.record(access, span);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(n: u32) -> Span {
        Span { start: n, end: n + 1 }
    }
    fn k(i: i128) -> Option<MapKey> {
        Some(MapKey::One(Value::Int(i)))
    }

    /// Two groups of two threads; slot 0 group-shared (group 0's copy), slot 1 global.
    fn log(benign: bool) -> RaceLog {
        RaceLog::new(vec![0, 1], vec![true, false], vec![0, 0, 1, 1], 2, benign)
    }

    #[test]
    fn read_write_in_one_interval_races_and_a_barrier_separates() {
        let mut l = log(true);
        l.access(0, k(1), 0, Access::Read, sp(1)).unwrap();
        let r = l.access(0, k(1), 1, Access::Write(Value::Int(3)), sp(2)).unwrap_err();
        assert_eq!(r.kind, RaceKind::ReadWrite);
        assert_eq!((r.first.tid, r.second.tid, r.first.span, r.second.span), (0, 1, sp(1), sp(2)));

        let mut l = log(true);
        l.access(0, k(1), 0, Access::Read, sp(1)).unwrap();
        l.barrier(0, true, false);
        l.access(0, k(1), 1, Access::Write(Value::Int(3)), sp(2)).unwrap();
        // Different locations never race.
        l.access(0, k(2), 0, Access::Write(Value::Int(3)), sp(3)).unwrap();
    }

    #[test]
    fn fences_only_separate_their_memory() {
        let mut l = log(true);
        l.access(1, k(1), 0, Access::Write(Value::Int(1)), sp(1)).unwrap();
        l.barrier(0, true, false); // local fence: global accesses not separated
        let r = l.access(1, k(1), 1, Access::Read, sp(2)).unwrap_err();
        assert_eq!(r.kind, RaceKind::WriteRead);

        let mut l = log(true);
        l.access(1, k(1), 0, Access::Write(Value::Int(1)), sp(1)).unwrap();
        l.barrier(0, false, true);
        l.access(1, k(1), 1, Access::Read, sp(2)).unwrap();
    }

    #[test]
    fn groups_are_never_separated_on_global_memory() {
        let mut l = log(true);
        l.access(1, k(5), 0, Access::Read, sp(1)).unwrap();
        l.barrier(0, true, true);
        l.barrier(1, true, true);
        l.access(1, k(5), 0, Access::Read, sp(3)).unwrap();
        let r = l.access(1, k(5), 2, Access::Write(Value::Int(0)), sp(2)).unwrap_err();
        assert_eq!((r.kind, r.first.tid, r.second.tid), (RaceKind::ReadWrite, 0, 2));
    }

    #[test]
    fn benign_writes() {
        let mut l = log(true);
        l.access(0, k(0), 0, Access::Write(Value::Int(7)), sp(1)).unwrap();
        l.access(0, k(0), 1, Access::Write(Value::Int(7)), sp(2)).unwrap();
        let r = l.access(0, k(0), 1, Access::Write(Value::Int(8)), sp(3)).unwrap_err();
        assert_eq!(r.kind, RaceKind::WriteWrite);

        let mut l = log(false);
        l.access(0, k(0), 0, Access::Write(Value::Int(7)), sp(1)).unwrap();
        assert!(l.access(0, k(0), 1, Access::Write(Value::Int(7)), sp(2)).is_err());
    }

    #[test]
    fn a_thread_that_wrote_two_values_conflicts_with_any_write() {
        let mut l = log(true);
        l.access(0, k(0), 0, Access::Write(Value::Int(1)), sp(1)).unwrap();
        l.access(0, k(0), 0, Access::Write(Value::Int(2)), sp(2)).unwrap();
        assert!(l.access(0, k(0), 1, Access::Write(Value::Int(2)), sp(3)).is_err());
    }

    #[test]
    fn whole_variable_accesses_conflict_with_every_location() {
        let mut l = log(true);
        l.access(0, k(4), 0, Access::Write(Value::Int(1)), sp(1)).unwrap();
        let r = l.access(0, None, 1, Access::Read, sp(2)).unwrap_err();
        assert_eq!(r.key, None);
        let mut l = log(true);
        l.access(0, None, 1, Access::Read, sp(2)).unwrap();
        assert!(l.access(0, k(4), 0, Access::Write(Value::Int(1)), sp(1)).is_err());
    }
}
