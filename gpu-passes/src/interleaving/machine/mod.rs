//! The interleaving machine (seed 000 §3, Fig. 4): every thread of the grid runs the kernel as a
//! small-step machine over its private frame and the shared store; a scheduler repeatedly picks
//! an enabled thread and lets it run up to and including its next *visible* instruction (one
//! that touches shared memory, calls, returns or synchronises; private steps commute with
//! everything, so nothing observable is lost by running them together).
//!
//! Barriers follow Fig. 4d: a thread at a barrier waits until every thread of its group is at a
//! barrier; then they all continue if they agree on the barrier variables — the barrier (with
//! the call stack that led to it) and the iteration counts of the loops around it, rules B1/B2 —
//! and the run ends with barrier divergence otherwise, or when some threads of the group wait
//! while others have finished.

use super::code::*;
use super::config::{Schedule, ThreadId};
use super::eval::{Ctx, Failure, Stop, UfTable};
use super::inputs::Inputs;
use super::race::RaceLog;
use super::rng::{gen_value, Rng};
use super::value::{MapKey, Value};
use ivl::ast::{BinOp, Span};
use ivl::diag::{Diagnostic, ErrorKind};
use std::rc::Rc;

/// Attempts at finding constants, inputs or havocked values that satisfy axioms, `requires`,
/// `assume`s and postconditions of bodiless procedures.
const SOLVE_TRIES: usize = 200;
const HAVOC_TRIES: usize = 64;
const MAX_FRAMES: usize = 10_000;
pub const MAX_THREADS: u64 = 1 << 16;

pub struct Frame {
    pub proc: u32,
    pub pc: u32,
    pub locals: Vec<Value>,
    pub loops: Vec<u32>,
    pub old: Rc<[Value]>,
}

pub struct Wait {
    sig: Vec<u32>,
    local: bool,
    global: bool,
    span: Span,
}

pub enum TState {
    Running,
    Waiting(Box<Wait>),
    Done,
}

pub struct Thread {
    pub frames: Vec<Frame>,
    pub state: TState,
    /// Where the thread finished (for divergence reports).
    pub done_span: Span,
    /// Output values of the root procedure, when it returned.
    pub outs: Vec<Value>,
}

pub struct ThreadInfo {
    pub id: ThreadId,
    pub group: u32,
    pub tconsts: Box<[Value]>,
}

#[derive(Default)]
struct GroupState {
    members: Vec<u32>,
    waiting: usize,
    done: usize,
}

pub struct Mem {
    pub consts: Vec<Value>,
    pub globals: Vec<Value>,
    /// Per group: global variable number to storage slot.
    pub slots: Vec<Box<[u32]>>,
    pub uf: UfTable,
}

pub struct Machine<'p> {
    pub prog: &'p Compiled,
    pub seed: u64,
    rng: Rng,
    pub mem: Mem,
    pub infos: Vec<ThreadInfo>,
    pub threads: Vec<Thread>,
    groups: Vec<GroupState>,
    pub race: Option<RaceLog>,
    runnable: Vec<u32>,
    pos: Vec<u32>,
    rr: usize,
    schedule: Schedule,
    steps: u64,
    max_steps: u64,
    empty: Rc<[Value]>,
    pub root: u32,
    /// The uniform parameter values of the root procedure.
    pub params: Vec<Value>,
    /// Values of `__uniform` checks seen so far, by site and place.
    uniform: rustc_hash::FxHashMap<(u32, Vec<u32>), (Value, u32)>,
}

/// What the run is about.
pub enum Mode<'a> {
    Kernel,
    /// One thread running procedure `.0` (plain Boogie), with these inputs.
    Procedure(u32, &'a Inputs),
}

macro_rules! ctx {
    ($m:expr, $t:expr, $old:expr, $log:expr, $span:expr) => {
        Ctx {
            prog: $m.prog,
            seed: $m.seed,
            consts: &$m.mem.consts,
            tconsts: &$m.infos[$t].tconsts,
            globals: &$m.mem.globals,
            slots: &$m.mem.slots[$m.infos[$t].group as usize],
            old: $old,
            uf: &$m.mem.uf,
            log: $log,
            tid: $t as u32,
            span: $span,
            depth: 0,
            spec_log: None,
            spec_choice: Vec::new(),
        }
    };
}

// The machine's concerns, each an `impl Machine` block of its own (declared after `ctx!`, which
// they use): setting up a run, constants, scheduling, stepping, writes, calls, barriers.
mod barrier;
mod call;
mod constants;
mod memory;
mod schedule;
mod setup;
mod step;

fn fail(kind: ErrorKind, message: String, span: Span, label: &str, threads: Vec<u32>) -> Stop {
    Stop::Fail(Box::new(Failure { kind, message, span, label: label.into(), related: Vec::new(), threads }))
}

/// `(target, rhs)` for every conjunct `target == rhs` (both orientations). Bugle's encoding of
/// a Boolean as a bit, `(if c then 1bv1 else 0bv1) != 0bv1`, counts as `c`.
fn definitions(e: &Ex) -> Vec<(&Ex, &Ex)> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Ex::And(p) => {
                stack.push(&p.1);
                stack.push(&p.0);
            }
            Ex::Bin(BinOp::Neq, p) if matches!(&p.1, Ex::Lit(Value::Bv(1, 0))) => {
                if let Ex::Ite(t) = &p.0 {
                    if matches!((&t.1, &t.2), (Ex::Lit(Value::Bv(1, 1)), Ex::Lit(Value::Bv(1, 0)))) {
                        stack.push(&t.0);
                    }
                }
            }
            Ex::Bin(BinOp::Eq, p) => {
                out.push((&p.0, &p.1));
                out.push((&p.1, &p.0));
            }
            _ => {}
        }
    }
    out
}

/// Writes `v` at `keys` (a path of indices) into `base`.
fn store_path(cx: &mut Ctx, base: Value, keys: &[MapKey], v: Value) -> Result<Value, Stop> {
    match keys {
        [] => Ok(v),
        [k, rest @ ..] => {
            let inner = if rest.is_empty() { Value::Bool(false) } else { cx.select(&base, k)? };
            let new_inner = store_path(cx, inner, rest, v)?;
            super::eval::map_store(base, k.clone(), new_inner)
        }
    }
}

/// The failure of an `assert` (loop invariants: entry or maintenance by the loop counter).
fn assert_failure(kind: CheckKind, loops: &[u32], span: Span, related: Option<Span>, t: usize) -> Stop {
    let kind = match kind {
        CheckKind::Fixed(k) => k,
        CheckKind::LoopInvariant(l) if loops[l as usize] <= 1 => ErrorKind::InvariantEntry,
        CheckKind::LoopInvariant(_) => ErrorKind::InvariantMaintained,
    };
    let (message, label) = match kind {
        ErrorKind::InvariantEntry => ("loop invariant does not hold on entry", "fails on entry to the loop"),
        ErrorKind::InvariantMaintained => ("loop invariant is not maintained", "fails after an iteration"),
        ErrorKind::Precondition => ("precondition does not hold", "this call"),
        ErrorKind::Postcondition => ("postcondition does not hold", "on this return"),
        _ => ("assertion does not hold", "this assertion fails"),
    };
    let mut f = Failure {
        kind,
        message: message.into(),
        span,
        label: label.into(),
        related: Vec::new(),
        threads: vec![t as u32],
    };
    if let Some(r) = related {
        f.related.push((r, "the related clause".into()));
    }
    Stop::Fail(Box::new(f))
}

impl Machine<'_> {
    fn invalid(msg: String, span: Span) -> Stop {
        Stop::Unsupported(Rc::new(Diagnostic::unsupported(msg, span)))
    }

    fn fresh_frame_locals(&mut self, proc: u32, mut ins: Vec<Value>) -> Vec<Value> {
        let p = &self.prog.procs[proc as usize];
        for &ty in &p.slot_tys[ins.len().min(p.slot_tys.len())..] {
            ins.push(gen_value(&self.prog.types, ty, &mut self.rng));
        }
        ins.resize(p.frame_size.max(p.slot_tys.len() as u32) as usize, Value::Bool(false));
        ins
    }

    fn new_frame(&self, proc: u32, locals: Vec<Value>, old: Rc<[Value]>) -> Frame {
        let p = &self.prog.procs[proc as usize];
        let code = p.body.as_ref();
        let mut loops = vec![0u32; code.map_or(0, |c| c.n_loops as usize)];
        if let Some(c) = code {
            for &l in &c.entry_loops {
                loops[l as usize] = 1;
            }
        }
        Frame { proc, pc: 0, locals, loops, old }
    }

    pub fn thread_name(&self, t: u32) -> String {
        self.infos[t as usize].id.to_string()
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }
}
