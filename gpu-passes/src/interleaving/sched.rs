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
use super::eval::{flatten_keys, int_value_of_type, truthy, Ctx, Failure, Stop, UfTable};
use super::inputs::{to_value, Inputs};
use super::race::{Access, RaceLog};
use super::rng::{gen_value, Rng};
use super::types::{RTy, TyId};
use super::value::{MapKey, Value};
use super::{RunConfig, Schedule, ThreadId};
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

fn dims3(v: &Option<Vec<u64>>) -> Option<[u64; 3]> {
    v.as_ref()
        .map(|d| [d.first().copied().unwrap_or(1), d.get(1).copied().unwrap_or(1), d.get(2).copied().unwrap_or(1)])
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

impl<'p> Machine<'p> {
    /// Sets up a run: constants (axioms), sizes, threads, memory, inputs (`requires`).
    pub fn new(prog: &'p Compiled, cfg: &RunConfig, mode: Mode) -> Result<Machine<'p>, Stop> {
        let inputs = match &mode {
            Mode::Kernel => &cfg.inputs,
            Mode::Procedure(_, i) => *i,
        };
        let root = match mode {
            Mode::Kernel => match prog.kernel() {
                Some(k) => k as u32,
                None => {
                    return Err(Stop::Unsupported(Rc::new(Diagnostic::unsupported(
                        "`kivl run` needs a procedure marked {:kernel} with a body",
                        Span::DUMMY,
                    ))))
                }
            },
            Mode::Procedure(p, _) => p,
        };
        let kernel_mode = matches!(mode, Mode::Kernel);
        let mut m = Machine {
            prog,
            seed: cfg.seed,
            rng: Rng::new(cfg.seed),
            mem: Mem { consts: Vec::new(), globals: Vec::new(), slots: Vec::new(), uf: UfTable::default() },
            infos: Vec::new(),
            threads: Vec::new(),
            groups: Vec::new(),
            race: None,
            runnable: Vec::new(),
            pos: Vec::new(),
            rr: 0,
            schedule: cfg.schedule,
            steps: 0,
            max_steps: cfg.max_steps,
            empty: Rc::from(Vec::new()),
            root,
            params: Vec::new(),
            uniform: Default::default(),
        };
        let (local, groups) = m.setup_constants(cfg, inputs, kernel_mode)?;
        m.setup_threads(cfg, local, groups, kernel_mode)?;
        m.setup_memory_and_params(inputs)?;
        if kernel_mode {
            let slot_var = (0..m.mem.globals.len() as u32).map(|s| m.slot_var(s)).collect::<Vec<_>>();
            let slot_gs = slot_var.iter().map(|&g| prog.globals[g as usize].group_shared).collect();
            let tg = m.infos.iter().map(|i| i.group).collect();
            let mut log = RaceLog::new(slot_var, slot_gs, tg, m.groups.len(), cfg.benign_tolerance);
            if prog.uses_spec_access {
                log.track_offsets(cfg.seed);
            }
            m.race = Some(log);
        }
        Ok(m)
    }

    fn slot_var(&self, slot: u32) -> u32 {
        for table in &self.mem.slots {
            if let Some(g) = table.iter().position(|&s| s == slot) {
                return g as u32;
            }
        }
        0
    }

    fn invalid(msg: String, span: Span) -> Stop {
        Stop::Unsupported(Rc::new(Diagnostic::unsupported(msg, span)))
    }

    /// Constants: sizes from the configuration, then the definitions axioms make
    /// (`axiom c == e;`, `axiom f(1) == 2;`), then arbitrary values; uniform axioms must hold.
    fn setup_constants(
        &mut self,
        cfg: &RunConfig,
        inputs: &Inputs,
        kernel: bool,
    ) -> Result<([u64; 3], [u64; 3]), Stop> {
        let prog = self.prog;
        let n = prog.consts.len();
        let mut last_failure = None;
        for _attempt in 0..SOLVE_TRIES {
            let mut vals: Vec<Option<Value>> = vec![None; n];
            let (cfg_local, cfg_groups) =
                if kernel { (dims3(&cfg.local_size), dims3(&cfg.num_groups)) } else { (Some([1; 3]), Some([1; 3])) };
            for (i, c) in prog.consts.iter().enumerate() {
                if let Some(attr) = c.size_attr {
                    let dims = if attr < 9 { cfg_local } else { cfg_groups };
                    if let Some(d) = dims {
                        vals[i] = Some(int_value_of_type(&prog.types, c.ty, d[attr % 3]));
                    }
                }
                if let Some(v) = inputs.constant(&c.name) {
                    vals[i] = Some(
                        to_value(&prog.types, c.ty, v, &mut self.rng)
                            .map_err(|e| Self::invalid(format!("input constant `{}`: {e}", c.name), c.span))?,
                    );
                }
            }
            self.mem.uf.clear();
            self.define_from_axioms(&mut vals)?;
            // Sizes nobody fixed: the number of groups defaults to 1; the group size must be given.
            for (i, c) in prog.consts.iter().enumerate() {
                if let (Some(attr), None) = (c.size_attr, &vals[i]) {
                    if attr < 9 {
                        let span = if c.span == Span::DUMMY { prog.procs[self.root as usize].span } else { c.span };
                        return Err(Self::invalid(
                            format!(
                                "`kivl run` needs a concrete work-group size: pass --local-size (nothing fixes `{}`)",
                                c.name
                            ),
                            span,
                        ));
                    }
                    vals[i] = Some(int_value_of_type(&prog.types, c.ty, 1));
                }
            }
            self.fill_arbitrary(&mut vals);
            self.mem.consts = vals.into_iter().map(|v| v.unwrap()).collect();
            // Sizes, as the run will use them.
            let read = |attr: usize, given: Option<[u64; 3]>| -> Option<u64> {
                if let Some(d) = given {
                    return Some(d[attr % 3]);
                }
                let i = prog.consts.iter().position(|c| c.size_attr == Some(attr))?;
                self.mem.consts[i].to_u64_lossy()
            };
            let mut local = [1u64; 3];
            let mut groups = [1u64; 3];
            for d in 0..3 {
                local[d] = read(6 + d, cfg_local).unwrap_or(1);
                groups[d] = read(9 + d, cfg_groups).unwrap_or(1);
            }
            if kernel && cfg_local.is_none() && !prog.consts.iter().any(|c| c.size_attr == Some(6)) {
                return Err(Self::invalid(
                    "`kivl run` needs a concrete work-group size: pass --local-size".into(),
                    prog.procs[self.root as usize].span,
                ));
            }
            match self.check_axioms(false) {
                Ok(()) => return Ok((local, groups)),
                Err(Stop::Fail(f)) => last_failure = Some(f),
                Err(e) => return Err(e),
            }
        }
        let f = last_failure.unwrap();
        let hint = if kernel && (cfg.local_size.is_some() || cfg.num_groups.is_some()) {
            " (do --local-size and --num-groups agree with it?)"
        } else {
            ""
        };
        Err(Self::invalid(
            format!("`kivl run` could not find constants that satisfy this axiom in {SOLVE_TRIES} tries{hint}"),
            f.span,
        ))
    }

    fn define_from_axioms(&mut self, vals: &mut [Option<Value>]) -> Result<(), Stop> {
        let prog = self.prog;
        loop {
            let mut progress = false;
            for ax in prog.axioms.iter().filter(|a| !a.per_thread) {
                for (target, rhs) in definitions(&ax.e) {
                    let settable = match target {
                        Ex::Const(i) => vals[*i as usize].is_none(),
                        Ex::Call(f, args) => {
                            matches!(prog.functions[*f as usize].imp, FnImpl::Uninterpreted)
                                && args.iter().all(|a| ready(a, vals))
                        }
                        _ => false,
                    };
                    if !settable || !ready(rhs, vals) {
                        continue;
                    }
                    let consts: Vec<Value> = vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect();
                    let empty: Vec<Value> = Vec::new();
                    let mut cx = Ctx {
                        prog,
                        seed: self.seed,
                        consts: &consts,
                        tconsts: &empty,
                        globals: &empty,
                        slots: &[],
                        old: &empty,
                        uf: &self.mem.uf,
                        log: None,
                        tid: 0,
                        span: ax.span,
                        depth: 0,
                        spec_log: None,
                        spec_choice: Vec::new(),
                    };
                    let v = cx.eval(rhs, &mut [])?;
                    match target {
                        Ex::Const(i) => vals[*i as usize] = Some(v),
                        Ex::Call(f, args) => {
                            let a = args.iter().map(|a| cx.eval(a, &mut [])).collect::<Result<Vec<_>, _>>()?;
                            let key = (*f, MapKey::from_vec(a));
                            if self.mem.uf.contains_key(&key) {
                                continue;
                            }
                            self.mem.uf.insert(key, v);
                        }
                        _ => unreachable!(),
                    }
                    progress = true;
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    fn fill_arbitrary(&mut self, vals: &mut [Option<Value>]) {
        let prog = self.prog;
        let mut unique_seen: Vec<(u32, Value)> = Vec::new();
        for (i, c) in prog.consts.iter().enumerate() {
            if vals[i].is_none() {
                let mut v = gen_value(&prog.types, c.ty, &mut self.rng);
                if c.unique {
                    let mut k = 0u64;
                    while unique_seen.iter().any(|(t, u)| *t == c.ty && *u == v) && k < 1000 {
                        v = match (&prog.types[c.ty as usize], k) {
                            (RTy::Opaque(t), _) => Value::Opaque(*t, 1000 + k),
                            _ => gen_value(&prog.types, c.ty, &mut self.rng),
                        };
                        k += 1;
                    }
                }
                vals[i] = Some(v);
            }
            if c.unique {
                unique_seen.push((c.ty, vals[i].clone().unwrap()));
            }
        }
    }

    /// Checks the axioms (uniform ones, or per-thread ones in every thread).
    fn check_axioms(&mut self, per_thread: bool) -> Result<(), Stop> {
        let prog = self.prog;
        let threads: Vec<usize> = if per_thread { (0..self.infos.len()).collect() } else { vec![usize::MAX] };
        let empty_t: Box<[Value]> = Box::new([]);
        for ax in prog.axioms.iter().filter(|a| a.per_thread == per_thread) {
            for &t in &threads {
                let tconsts = if t == usize::MAX { &empty_t } else { &self.infos[t].tconsts };
                let empty: Vec<Value> = Vec::new();
                let mut cx = Ctx {
                    prog,
                    seed: self.seed,
                    consts: &self.mem.consts,
                    tconsts,
                    globals: &empty,
                    slots: &[],
                    old: &empty,
                    uf: &self.mem.uf,
                    log: None,
                    tid: 0,
                    span: ax.span,
                    depth: 0,
                    spec_log: None,
                    spec_choice: Vec::new(),
                };
                if !cx.eval_bool(&ax.e, &mut [])? {
                    return Err(fail(ErrorKind::Assertion, "axiom does not hold".into(), ax.span, "", vec![]));
                }
            }
        }
        Ok(())
    }

    fn setup_threads(&mut self, cfg: &RunConfig, local: [u64; 3], groups: [u64; 3], kernel: bool) -> Result<(), Stop> {
        let prog = self.prog;
        let per_group: u64 = local.iter().product();
        let n_groups: u64 = groups.iter().product();
        if per_group.saturating_mul(n_groups) > MAX_THREADS {
            return Err(Self::invalid(
                format!(
                    "`kivl run` runs at most {MAX_THREADS} threads; this grid has {}",
                    per_group.saturating_mul(n_groups)
                ),
                prog.procs[self.root as usize].span,
            ));
        }
        self.groups = (0..n_groups).map(|_| GroupState::default()).collect();
        for g in 0..n_groups {
            let gid = [g % groups[0], (g / groups[0]) % groups[1], g / (groups[0] * groups[1])];
            for l in 0..per_group {
                let lid = [l % local[0], (l / local[0]) % local[1], l / (local[0] * local[1])];
                let id = ThreadId {
                    local: [lid[0] as u32, lid[1] as u32, lid[2] as u32],
                    group: [gid[0] as u32, gid[1] as u32, gid[2] as u32],
                };
                if kernel {
                    if let Some(sel) = &cfg.threads {
                        if !sel.contains(&id) {
                            continue;
                        }
                    }
                }
                let tconsts = prog
                    .tconsts
                    .iter()
                    .map(|tc| {
                        let v = if tc.attr < 3 { lid[tc.attr] } else { gid[tc.attr - 3] };
                        int_value_of_type(&prog.types, tc.ty, v)
                    })
                    .collect();
                let tid = self.infos.len() as u32;
                self.infos.push(ThreadInfo { id, group: g as u32, tconsts });
                self.groups[g as usize].members.push(tid);
            }
        }
        if self.infos.is_empty() {
            return Err(Self::invalid("no thread of the grid was selected".into(), Span::DUMMY));
        }
        if let Err(Stop::Fail(f)) = self.check_axioms(true) {
            return Err(Self::invalid(
                "`kivl run`: this axiom about thread identities does not hold with the given sizes".into(),
                f.span,
            ));
        }
        Ok(())
    }

    /// Shared memory, the uniform parameters and every thread's frame; the root procedure's
    /// `requires` are assumed: inputs are drawn (and defined by `x == e` conjuncts) until they
    /// hold in every thread.
    fn setup_memory_and_params(&mut self, inputs: &Inputs) -> Result<(), Stop> {
        let prog = self.prog;
        let n_groups = self.groups.len();
        let mut next = 0u32;
        let mut tables = vec![vec![0u32; prog.globals.len()]; n_groups];
        for (g, var) in prog.globals.iter().enumerate() {
            for (grp, table) in tables.iter_mut().enumerate() {
                table[g] = if var.group_shared { next + grp as u32 } else { next };
            }
            next += if var.group_shared { n_groups as u32 } else { 1 };
        }
        self.mem.slots = tables.into_iter().map(|t| t.into_boxed_slice()).collect();
        let root = &prog.procs[self.root as usize];
        let n_ins = root.n_ins();
        for (i, name) in root.in_names.iter().enumerate() {
            if let Some(v) = inputs.param(name) {
                let _ = to_value(&prog.types, root.slot_tys[i], v, &mut self.rng)
                    .map_err(|e| Self::invalid(format!("input parameter `{name}`: {e}"), root.span))?;
            }
        }
        for (name, _) in inputs.params.iter() {
            if !root.in_names.iter().any(|n| n == name) {
                return Err(Self::invalid(
                    format!("`{}` has no parameter `{name}` (from the inputs)", root.name),
                    root.span,
                ));
            }
        }
        for (name, _) in inputs.memory.iter() {
            if prog.global_named(name).is_none() {
                return Err(Self::invalid(
                    format!("there is no global variable `{name}` (from the inputs)"),
                    Span::DUMMY,
                ));
            }
        }
        let mut last_fail = None;
        for _attempt in 0..SOLVE_TRIES {
            // Memory.
            let mut globals = vec![Value::Bool(false); next as usize];
            for (g, var) in prog.globals.iter().enumerate() {
                let copies = if var.group_shared { n_groups } else { 1 };
                for c in 0..copies {
                    let slot = self.mem.slots[c][g] as usize;
                    globals[slot] = match inputs.memory(&var.name) {
                        Some(v) => to_value(&prog.types, var.ty, v, &mut self.rng)
                            .map_err(|e| Self::invalid(format!("input memory `{}`: {e}", var.name), var.span))?,
                        None => gen_value(&prog.types, var.ty, &mut self.rng),
                    };
                }
            }
            self.mem.globals = globals;
            // Uniform parameters.
            let mut params = Vec::with_capacity(n_ins);
            let mut fixed = vec![false; n_ins];
            for (i, fixed_i) in fixed.iter_mut().enumerate() {
                let ty = root.slot_tys[i];
                params.push(match inputs.param(&root.in_names[i]) {
                    Some(v) => {
                        *fixed_i = true;
                        to_value(&prog.types, ty, v, &mut self.rng).unwrap()
                    }
                    None => gen_value(&prog.types, ty, &mut self.rng),
                });
            }
            let fixed_mem: Vec<bool> = prog.globals.iter().map(|g| inputs.memory(&g.name).is_some()).collect();
            // The root frame as the requires see it (parameters, uniform across threads).
            let mut proto = self.fresh_frame_locals(self.root, params);
            let old: Rc<[Value]> = if root.uses_old { Rc::from(self.mem.globals.clone()) } else { self.empty.clone() };
            // Definitions from the requires, in the first thread of every group.
            for grp in 0..n_groups {
                let Some(&t) = self.groups[grp].members.first() else {
                    continue;
                };
                for r in &root.requires {
                    for (target, rhs) in definitions(&r.e) {
                        self.define(t as usize, target, rhs, &fixed, &fixed_mem, n_ins, &mut proto, &old)?;
                    }
                }
            }
            match self.check_root_requires(&mut proto, &old) {
                Ok(()) => {
                    self.params = proto[..n_ins].to_vec();
                    self.threads.clear();
                    for _ in 0..self.infos.len() {
                        let locals = self.fresh_frame_locals(self.root, self.params.clone());
                        let frame = self.new_frame(self.root, locals, old.clone());
                        self.threads.push(Thread {
                            frames: vec![frame],
                            state: TState::Running,
                            done_span: Span::DUMMY,
                            outs: Vec::new(),
                        });
                    }
                    self.runnable = (0..self.threads.len() as u32).collect();
                    self.pos = (0..self.threads.len() as u32).collect();
                    return Ok(());
                }
                Err(Stop::Fail(f)) => last_fail = Some(f),
                Err(e) => return Err(e),
            }
            if fixed.iter().all(|f| *f) && prog.globals.is_empty() {
                break;
            }
        }
        let f = last_fail.unwrap();
        Err(Stop::Infeasible(format!(
            "could not satisfy the requires of `{}` (line of byte {}) in {SOLVE_TRIES} tries",
            root.name, f.span.start
        )))
    }

    /// Applies a definition `target := rhs` (evaluated in thread `t`) to the root frame's
    /// parameters or the initial memory, if `target` is an input nobody fixed.
    #[allow(clippy::too_many_arguments)]
    fn define(
        &mut self,
        t: usize,
        target: &Ex,
        rhs: &Ex,
        fixed: &[bool],
        fixed_mem: &[bool],
        n_ins: usize,
        locals: &mut [Value],
        old: &[Value],
    ) -> Result<(), Stop> {
        let ok = match target {
            Ex::Local(s) => (*s as usize) < n_ins && !fixed[*s as usize],
            Ex::Global(g, _) => !fixed_mem[*g as usize],
            Ex::SharedSelect(s) => !fixed_mem[s.var as usize],
            _ => false,
        };
        if !ok {
            return Ok(());
        }
        let mut cx = ctx!(self, t, old, None, Span::DUMMY);
        let v = match cx.eval(rhs, locals) {
            Ok(v) => v,
            Err(Stop::Unsupported(_)) => return Ok(()),
            Err(e) => return Err(e),
        };
        match target {
            Ex::Local(s) => locals[*s as usize] = v,
            Ex::Global(g, _) => {
                let slot = self.mem.slots[self.infos[t].group as usize][*g as usize];
                self.mem.globals[slot as usize] = v;
            }
            Ex::SharedSelect(s) => {
                let keys = s
                    .levels
                    .iter()
                    .map(|l| {
                        let vals = l.iter().map(|i| cx.eval(i, locals)).collect::<Result<Vec<_>, _>>()?;
                        Ok(MapKey::from_vec(vals))
                    })
                    .collect::<Result<Vec<_>, Stop>>()?;
                let slot = self.mem.slots[self.infos[t].group as usize][s.var as usize] as usize;
                let base = std::mem::replace(&mut self.mem.globals[slot], Value::Bool(false));
                let mut cx = ctx!(self, t, old, None, Span::DUMMY);
                let new = store_path(&mut cx, base, &keys, v);
                self.mem.globals[slot] = new?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The root procedure's requires in every thread (the first failure is reported).
    fn check_root_requires(&mut self, locals: &mut [Value], old: &[Value]) -> Result<(), Stop> {
        let prog = self.prog;
        let root = &prog.procs[self.root as usize];
        for t in 0..self.infos.len() {
            let mut cx = ctx!(self, t, old, None, Span::DUMMY);
            for r in &root.requires {
                if !cx.eval_bool(&r.e, locals)? {
                    return Err(fail(ErrorKind::Precondition, String::new(), r.span, "", vec![t as u32]));
                }
            }
        }
        Ok(())
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

    // ----- scheduling ------------------------------------------------------------------------

    fn make_unrunnable(&mut self, t: usize) {
        let p = self.pos[t];
        if p == u32::MAX {
            return;
        }
        let last = *self.runnable.last().unwrap();
        self.runnable.swap_remove(p as usize);
        if last as usize != t {
            self.pos[last as usize] = p;
        }
        self.pos[t] = u32::MAX;
    }

    fn make_runnable(&mut self, t: usize) {
        if self.pos[t] == u32::MAX {
            self.pos[t] = self.runnable.len() as u32;
            self.runnable.push(t as u32);
        }
    }

    fn pick(&mut self) -> Option<usize> {
        if self.runnable.is_empty() {
            return None;
        }
        match self.schedule {
            Schedule::Random => Some(self.runnable[self.rng.below(self.runnable.len() as u64) as usize] as usize),
            Schedule::RoundRobin => {
                let n = self.threads.len();
                for k in 0..n {
                    let t = (self.rr + k) % n;
                    if self.pos[t] != u32::MAX {
                        self.rr = t + 1;
                        return Some(t);
                    }
                }
                None
            }
        }
    }

    /// Runs to the end. `Ok` when every thread finished.
    pub fn run(&mut self) -> Result<(), Stop> {
        while let Some(t) = self.pick() {
            self.step(t)?;
        }
        if let Some(t) = self.threads.iter().position(|th| !matches!(th.state, TState::Done)) {
            return Err(Stop::Internal(format!("thread {t} is blocked but no thread can run")));
        }
        Ok(())
    }

    /// The hot loop: runs thread `t`'s private (invisible) assignments, checks and jumps, and
    /// stops before anything else.
    fn run_private(&mut self, t: usize) -> Result<(), Stop> {
        let prog: &'p Compiled = self.prog;
        let th = &mut self.threads[t];
        let frame = th.frames.last_mut().expect("a running thread has a frame");
        let code = prog.procs[frame.proc as usize].body.as_ref().expect("frames run bodies");
        let Frame { locals, old, pc: fpc, loops, .. } = frame;
        let mut cx = ctx!(self, t, old, None, Span::DUMMY);
        cx.spec_log = self.race.as_ref();
        let budget = self.max_steps.saturating_sub(self.steps);
        let mut n: u64 = 0;
        let mut pc = *fpc;
        let r = loop {
            let i = pc as usize;
            if code.visible[i] || n >= budget {
                break Ok(());
            }
            match &code.instrs[i] {
                Instr::SetLocal(s, e) => match cx.eval(e, locals) {
                    Ok(v) => {
                        locals[*s as usize] = v;
                        pc += 1;
                    }
                    Err(e) => break Err(e),
                },
                Instr::Branch(c, a, b) => match cx.eval_bool(c, locals) {
                    Ok(v) => apply_edge(code, loops, &mut pc, if v { a } else { b }),
                    Err(e) => break Err(e),
                },
                Instr::Jump(edge) => apply_edge(code, loops, &mut pc, edge),
                Instr::Assume(e) => match cx.eval_bool(e, locals) {
                    Ok(true) => pc += 1,
                    Ok(false) => {
                        break Err(Stop::Infeasible(format!("an assume is false (byte {})", code.spans[i].start)))
                    }
                    Err(e) => break Err(e),
                },
                Instr::Assert { e, kind, related } => match cx.eval_bool(e, locals) {
                    Ok(true) => pc += 1,
                    Ok(false) => break Err(assert_failure(*kind, loops, code.spans[i], *related, t)),
                    Err(e) => break Err(e),
                },
                _ => break Ok(()),
            }
            n += 1;
        };
        *fpc = pc;
        self.steps += n;
        r
    }

    /// Thread `t` runs up to and including its next visible instruction.
    fn step(&mut self, t: usize) -> Result<(), Stop> {
        let prog: &'p Compiled = self.prog;
        loop {
            self.run_private(t)?;
            self.steps += 1;
            if self.steps > self.max_steps {
                return Err(Stop::Limit(format!("step limit of {} reached (use --max-steps)", self.max_steps)));
            }
            let th = &mut self.threads[t];
            let frame = th.frames.last_mut().expect("a running thread has a frame");
            let code = prog.procs[frame.proc as usize].body.as_ref().expect("frames run bodies");
            let pc = frame.pc as usize;
            let visible = code.visible[pc];
            let span = code.spans[pc];
            let Frame { locals, old, pc: fpc, loops, .. } = frame;
            let (log, spec_log) = if visible { (self.race.as_mut(), None) } else { (None, self.race.as_ref()) };
            let mut cx = ctx!(self, t, old, log, span);
            cx.spec_log = spec_log;
            match &code.instrs[pc] {
                Instr::SetLocal(s, e) => {
                    let v = cx.eval(e, locals)?;
                    locals[*s as usize] = v;
                    *fpc += 1;
                }
                Instr::Assume(e) => {
                    if !cx.eval_bool(e, locals)? {
                        return Err(Stop::Infeasible(format!("an assume is false (byte {})", span.start)));
                    }
                    *fpc += 1;
                }
                Instr::Assert { e, kind, related } => {
                    if !cx.eval_bool(e, locals)? {
                        return Err(assert_failure(*kind, loops, span, *related, t));
                    }
                    *fpc += 1;
                }
                Instr::Jump(edge) => {
                    apply_edge(code, loops, fpc, edge);
                }
                Instr::Branch(c, a, b) => {
                    let e = if cx.eval_bool(c, locals)? { a } else { b };
                    apply_edge(code, loops, fpc, e);
                }
                Instr::Goto(edges) => {
                    // Lookahead without logging, then the chosen target's guards for real.
                    cx.log = None;
                    let mut feasible: Vec<usize> = Vec::with_capacity(edges.len());
                    for (i, ge) in edges.iter().enumerate() {
                        let mut ok = true;
                        for g in ge.guards.iter() {
                            if !cx.eval_bool(g, locals)? {
                                ok = false;
                                break;
                            }
                        }
                        if ok {
                            feasible.push(i);
                        }
                    }
                    let chosen = match feasible.len() {
                        0 => {
                            return Err(Stop::Infeasible(format!(
                                "no target of a goto is feasible (byte {})",
                                span.start
                            )))
                        }
                        1 => feasible[0],
                        n => feasible[self.rng.below(n as u64) as usize],
                    };
                    let ge = &edges[chosen];
                    if visible {
                        let mut cx = ctx!(self, t, old, self.race.as_mut(), span);
                        for g in ge.guards.iter() {
                            cx.eval_bool(g, locals)?;
                        }
                    }
                    apply_edge(code, loops, fpc, &ge.edge);
                }
                Instr::Assign(lhss, rhss) => {
                    self.assign(t, lhss, rhss, span)?;
                }
                Instr::Atomic(site) => {
                    self.atomic(t, site, span)?;
                }
                Instr::Havoc(lhss, cons) => {
                    self.havoc(t, lhss, cons, span)?;
                }
                Instr::Call(site) => {
                    self.call(t, site, span)?;
                    return Ok(());
                }
                Instr::Return => {
                    self.ret(t, span)?;
                    return Ok(());
                }
                Instr::Barrier(site) => {
                    self.barrier(t, site, span)?;
                    return Ok(());
                }
                Instr::Uniform { e, kind, site } => {
                    let v = cx.eval(e, locals)?;
                    let kind = *kind;
                    self.uniform(t, *site, v, kind, span)?;
                    self.threads[t].frames.last_mut().unwrap().pc += 1;
                }
                Instr::Unsupported(d) => return Err(Stop::Unsupported(d.clone())),
            }
            if visible {
                return Ok(());
            }
        }
    }

    // ----- statements ------------------------------------------------------------------------

    fn eval_keys(&mut self, t: usize, levels: &[Box<[Ex]>], log: bool, span: Span) -> Result<Vec<MapKey>, Stop> {
        let frame = self.threads[t].frames.last_mut().unwrap();
        let log = if log { self.race.as_mut() } else { None };
        let mut cx = ctx!(self, t, &frame.old, log, span);
        levels
            .iter()
            .map(|l| {
                Ok(MapKey::from_vec(l.iter().map(|i| cx.eval(i, &mut frame.locals)).collect::<Result<Vec<_>, _>>()?))
            })
            .collect()
    }

    /// Writes a value to a place (logging writes to shared memory when `log`).
    fn write(&mut self, t: usize, place: Place, keys: &[MapKey], v: Value, span: Span, log: bool) -> Result<(), Stop> {
        match place {
            Place::Local(s) => {
                let frame = self.threads[t].frames.last_mut().unwrap();
                if keys.is_empty() {
                    frame.locals[s as usize] = v;
                    return Ok(());
                }
                let base = std::mem::replace(&mut frame.locals[s as usize], Value::Bool(false));
                let mut cx = ctx!(self, t, &frame.old, None, span);
                let new = store_path(&mut cx, base, keys, v)?;
                frame.locals[s as usize] = new;
            }
            Place::Global(g) => {
                let slot = self.mem.slots[self.infos[t].group as usize][g as usize];
                if log {
                    if let Some(r) = self.race.as_mut() {
                        let key = if keys.is_empty() { None } else { Some(flatten_keys(keys)) };
                        r.record(slot, key, t as u32, Access::Write(v.clone()), span);
                    }
                }
                if keys.is_empty() {
                    self.mem.globals[slot as usize] = v;
                    return Ok(());
                }
                let base = std::mem::replace(&mut self.mem.globals[slot as usize], Value::Bool(false));
                let frame = self.threads[t].frames.last().unwrap();
                let mut cx = ctx!(self, t, &frame.old, None, span);
                let new = store_path(&mut cx, base, keys, v);
                self.mem.globals[slot as usize] = new?;
            }
        }
        Ok(())
    }

    fn assign(&mut self, t: usize, lhss: &[Lhs], rhss: &[Ex], span: Span) -> Result<(), Stop> {
        let vals = {
            let frame = self.threads[t].frames.last_mut().unwrap();
            let mut cx = ctx!(self, t, &frame.old, self.race.as_mut(), span);
            rhss.iter().map(|e| cx.eval(e, &mut frame.locals)).collect::<Result<Vec<_>, _>>()?
        };
        let mut keys = Vec::with_capacity(lhss.len());
        for l in lhss {
            keys.push(self.eval_keys(t, &l.levels, true, l.span)?);
        }
        for ((l, k), v) in lhss.iter().zip(keys).zip(vals) {
            self.write(t, l.place, &k, v, l.span, true)?;
        }
        self.threads[t].frames.last_mut().unwrap().pc += 1;
        Ok(())
    }

    /// `atomic x := op(A[i], args);`: the arguments and indices are evaluated (plain reads),
    /// then the element is read, updated and written back in this one step, logged as one
    /// atomic access (`super::race`), and its old value goes to `x`.
    fn atomic(&mut self, t: usize, site: &AtomicSite, span: Span) -> Result<(), Stop> {
        let args = {
            let frame = self.threads[t].frames.last_mut().unwrap();
            let mut cx = ctx!(self, t, &frame.old, self.race.as_mut(), span);
            site.args.iter().map(|e| cx.eval(e, &mut frame.locals)).collect::<Result<Vec<_>, _>>()?
        };
        let keys = self.eval_keys(t, &site.target.levels, true, site.target.span)?;
        let Place::Global(g) = site.target.place else {
            return Err(Self::invalid("the target of an atomic must be a global variable".into(), span));
        };
        let slot = self.mem.slots[self.infos[t].group as usize][g as usize];
        let old = {
            let frame = self.threads[t].frames.last().unwrap();
            let mut cx = ctx!(self, t, &frame.old, None, span);
            let mut v = self.mem.globals[slot as usize].clone();
            for k in &keys {
                v = cx.select(&v, k)?;
            }
            v
        };
        if let Some(r) = self.race.as_mut() {
            let key = if keys.is_empty() { None } else { Some(flatten_keys(&keys)) };
            r.record(slot, key, t as u32, Access::Atomic, span);
        }
        let Some(new) = super::atomic::apply(site.op, &old, &args) else {
            return Err(Self::invalid(format!("atomic `{}` on the value {old}", site.op.name()), span));
        };
        self.write(t, Place::Global(g), &keys, new, span, false)?;
        if let Some(out) = &site.out {
            let k = self.eval_keys(t, &out.levels, true, out.span)?;
            self.write(t, out.place, &k, old, out.span, true)?;
        }
        self.threads[t].frames.last_mut().unwrap().pc += 1;
        Ok(())
    }

    fn place_type(&self, t: usize, place: Place) -> TyId {
        match place {
            Place::Local(s) => {
                let p = &self.prog.procs[self.threads[t].frames.last().unwrap().proc as usize];
                p.slot_tys.get(s as usize).copied().unwrap_or(self.prog.bool_ty)
            }
            Place::Global(g) => self.prog.globals[g as usize].ty,
        }
    }

    fn read_place(&self, t: usize, place: Place) -> Value {
        match place {
            Place::Local(s) => self.threads[t].frames.last().unwrap().locals[s as usize].clone(),
            Place::Global(g) => {
                self.mem.globals[self.mem.slots[self.infos[t].group as usize][g as usize] as usize].clone()
            }
        }
    }

    /// Evaluates constraints in thread `t`'s top frame; `Ok(false)` if one is false.
    fn constraints_hold(&mut self, t: usize, cons: &[Ex], log: bool, span: Span) -> Result<bool, Stop> {
        let frame = self.threads[t].frames.last_mut().unwrap();
        let log = if log { self.race.as_mut() } else { None };
        let mut cx = ctx!(self, t, &frame.old, log, span);
        for c in cons {
            if !cx.eval_bool(c, &mut frame.locals)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `havoc xs; assume φ…`: arbitrary values, with `x == e` conjuncts of φ used as
    /// definitions, retried until φ holds.
    fn havoc(&mut self, t: usize, lhss: &[Lhs], cons: &[Ex], span: Span) -> Result<(), Stop> {
        let places: Vec<Place> = lhss.iter().map(|l| l.place).collect();
        let mut ok = false;
        for _ in 0..HAVOC_TRIES {
            for &p in &places {
                let v = gen_value(&self.prog.types, self.place_type(t, p), &mut self.rng);
                self.write(t, p, &[], v, span, false)?;
            }
            for c in cons {
                for (target, rhs) in definitions(c) {
                    let place = match target {
                        Ex::Local(s) => Place::Local(*s),
                        Ex::Global(g, _) => Place::Global(*g),
                        _ => continue,
                    };
                    if !places.contains(&place) {
                        continue;
                    }
                    let v = {
                        let frame = self.threads[t].frames.last_mut().unwrap();
                        let mut cx = ctx!(self, t, &frame.old, None, span);
                        cx.eval(rhs, &mut frame.locals)?
                    };
                    self.write(t, place, &[], v, span, false)?;
                }
            }
            if self.constraints_hold(t, cons, false, span)? {
                ok = true;
                break;
            }
            if cons.is_empty() {
                break;
            }
        }
        if !ok && !cons.is_empty() {
            return Err(Stop::Infeasible(format!(
                "no value satisfies the assumption after a havoc (byte {})",
                span.start
            )));
        }
        // Log the accesses for real: the writes, then the reads of the constraints.
        for (l, &p) in lhss.iter().zip(&places) {
            if let Place::Global(_) = p {
                let v = self.read_place(t, p);
                self.write(t, p, &[], v, l.span, true)?;
            }
        }
        self.constraints_hold(t, cons, true, span)?;
        self.threads[t].frames.last_mut().unwrap().pc += 1;
        Ok(())
    }

    fn call(&mut self, t: usize, site: &CallSite, span: Span) -> Result<(), Stop> {
        let prog = self.prog;
        let callee = &prog.procs[site.proc as usize];
        if self.threads[t].frames.len() >= MAX_FRAMES {
            return Err(Stop::Limit(format!("calls nested more than {MAX_FRAMES} deep")));
        }
        let args = {
            let frame = self.threads[t].frames.last_mut().unwrap();
            let mut cx = ctx!(self, t, &frame.old, self.race.as_mut(), span);
            site.args.iter().map(|e| cx.eval(e, &mut frame.locals)).collect::<Result<Vec<_>, _>>()?
        };
        let old: Rc<[Value]> = if callee.uses_old { Rc::from(self.mem.globals.clone()) } else { self.empty.clone() };
        let mut locals = self.fresh_frame_locals(site.proc, args);
        // Preconditions: checked (free ones assumed). Contracts are specifications: their reads
        // are not accesses of the program.
        {
            let mut cx = ctx!(self, t, &old, None, span);
            cx.spec_log = self.race.as_ref();
            for r in &callee.requires {
                if !cx.eval_bool(&r.e, &mut locals)? {
                    if r.free {
                        return Err(Stop::Infeasible(format!("a free precondition of `{}` is false", callee.name)));
                    }
                    let mut f = Failure {
                        kind: ErrorKind::Precondition,
                        message: format!("precondition of `{}` does not hold", callee.name),
                        span,
                        label: "this call".into(),
                        related: vec![(r.span, "this precondition fails".into())],
                        threads: vec![t as u32],
                    };
                    if self.threads.len() == 1 {
                        f.threads.clear();
                    }
                    return Err(Stop::Fail(Box::new(f)));
                }
            }
        }
        if callee.body.is_some() {
            let frame = self.new_frame(site.proc, locals, old);
            self.threads[t].frames.push(frame);
            return Ok(());
        }
        // No body: outputs and modified globals get arbitrary values satisfying the ensures.
        let n_ins = callee.n_ins();
        let outs = n_ins..n_ins + callee.n_outs();
        let saved: Vec<Value> = callee.modifies.iter().map(|&g| self.read_place(t, Place::Global(g))).collect();
        let mut ok = false;
        let mut changed: Vec<(u32, Option<Vec<MapKey>>)> = Vec::new();
        for attempt in 0..HAVOC_TRIES {
            changed.clear();
            for s in outs.clone() {
                locals[s] = gen_value(&prog.types, callee.slot_tys[s], &mut self.rng);
            }
            for (k, &g) in callee.modifies.iter().enumerate() {
                // First try: globals unchanged (a havoc may pick the old values).
                let v = if attempt == 0 {
                    saved[k].clone()
                } else {
                    gen_value(&prog.types, prog.globals[g as usize].ty, &mut self.rng)
                };
                if attempt > 0 {
                    changed.push((g, None));
                }
                self.write(t, Place::Global(g), &[], v, span, false)?;
            }
            for e in &callee.ensures {
                for (target, rhs) in definitions(&e.e) {
                    let mut cx = ctx!(self, t, &old, None, span);
                    match target {
                        Ex::Local(s) if outs.contains(&(*s as usize)) => {
                            if let Ok(v) = cx.eval(rhs, &mut locals) {
                                locals[*s as usize] = v;
                            }
                        }
                        Ex::Global(g, _) if callee.modifies.contains(g) => {
                            if let Ok(v) = cx.eval(rhs, &mut locals) {
                                changed.push((*g, None));
                                self.write(t, Place::Global(*g), &[], v, span, false)?;
                            }
                        }
                        Ex::SharedSelect(s) if callee.modifies.contains(&s.var) => {
                            let keys: Result<Vec<MapKey>, Stop> = s
                                .levels
                                .iter()
                                .map(|l| {
                                    Ok(MapKey::from_vec(
                                        l.iter().map(|i| cx.eval(i, &mut locals)).collect::<Result<Vec<_>, _>>()?,
                                    ))
                                })
                                .collect();
                            if let (Ok(keys), Ok(v)) = (keys, cx.eval(rhs, &mut locals)) {
                                changed.push((s.var, Some(keys.clone())));
                                self.write(t, Place::Global(s.var), &keys, v, span, false)?;
                            }
                        }
                        _ => {}
                    }
                }
            }
            let mut cx = ctx!(self, t, &old, None, span);
            let mut all = true;
            for e in &callee.ensures {
                if !cx.eval_bool(&e.e, &mut locals)? {
                    all = false;
                    break;
                }
            }
            if all {
                ok = true;
                break;
            }
        }
        if !ok {
            return Err(Stop::Infeasible(format!(
                "no outputs satisfy the postcondition of `{}` (a procedure without body)",
                callee.name
            )));
        }
        // Log the writes the call made to shared memory.
        for (g, keys) in changed {
            let slot = self.mem.slots[self.infos[t].group as usize][g as usize];
            let whole = self.read_place(t, Place::Global(g));
            let (key, written) = match keys {
                Some(k) => {
                    let frame = self.threads[t].frames.last().unwrap();
                    let mut cx = ctx!(self, t, &frame.old, None, span);
                    let mut cur = whole;
                    for kk in &k {
                        cur = cx.select(&cur, kk)?;
                    }
                    (Some(flatten_keys(&k)), cur)
                }
                None => (None, whole),
            };
            if let Some(r) = self.race.as_mut() {
                r.record(slot, key, t as u32, Access::Write(written), span);
            }
        }
        let out_vals: Vec<Value> = locals[outs].to_vec();
        for (l, v) in site.outs.iter().zip(out_vals) {
            self.write(t, l.place, &[], v, l.span, true)?;
        }
        self.threads[t].frames.last_mut().unwrap().pc += 1;
        Ok(())
    }

    fn ret(&mut self, t: usize, span: Span) -> Result<(), Stop> {
        let prog = self.prog;
        let proc = self.threads[t].frames.last().unwrap().proc;
        let p = &prog.procs[proc as usize];
        {
            let frame = self.threads[t].frames.last_mut().unwrap();
            let mut cx = ctx!(self, t, &frame.old, None, span);
            cx.spec_log = self.race.as_ref();
            for e in &p.ensures {
                if !cx.eval_bool(&e.e, &mut frame.locals)? {
                    if e.free {
                        return Err(Stop::Infeasible(format!("a free postcondition of `{}` is false", p.name)));
                    }
                    let threads = if self.threads.len() == 1 { vec![] } else { vec![t as u32] };
                    return Err(Stop::Fail(Box::new(Failure {
                        kind: ErrorKind::Postcondition,
                        message: format!("postcondition of `{}` does not hold", p.name),
                        span: e.span,
                        label: "this postcondition fails".into(),
                        related: vec![(span, "on this return path".into())],
                        threads,
                    })));
                }
            }
        }
        let frame = self.threads[t].frames.pop().unwrap();
        let n_ins = p.n_ins();
        let outs: Vec<Value> = frame.locals[n_ins..n_ins + p.n_outs()].to_vec();
        if self.threads[t].frames.is_empty() {
            let th = &mut self.threads[t];
            th.outs = outs;
            th.state = TState::Done;
            th.done_span = span;
            th.frames.push(frame); // keep the final frame for inspection
            self.make_unrunnable(t);
            let g = self.infos[t].group as usize;
            self.groups[g].done += 1;
            return self.try_release(g);
        }
        let caller = self.threads[t].frames.last().unwrap();
        let code = prog.procs[caller.proc as usize].body.as_ref().unwrap();
        let Instr::Call(site) = &code.instrs[caller.pc as usize] else {
            return Err(Stop::Internal("return to a frame that is not at a call".into()));
        };
        let call_span = code.spans[caller.pc as usize];
        for (l, v) in site.outs.iter().zip(outs) {
            self.write(t, l.place, &[], v, if l.span == Span::DUMMY { call_span } else { l.span }, true)?;
        }
        self.threads[t].frames.last_mut().unwrap().pc += 1;
        Ok(())
    }

    fn barrier(&mut self, t: usize, site: &BarrierSite, span: Span) -> Result<(), Stop> {
        let fence = |f: &Fence, m: &mut Self| -> Result<bool, Stop> {
            Ok(match f {
                Fence::Yes => true,
                Fence::No => false,
                Fence::Arg(e) => {
                    let frame = m.threads[t].frames.last_mut().unwrap();
                    let mut cx = ctx!(m, t, &frame.old, m.race.as_mut(), span);
                    truthy(&cx.eval(e, &mut frame.locals)?)
                }
            })
        };
        let local = fence(&site.local, self)?;
        let global = fence(&site.global, self)?;
        let sig = self.signature(t);
        self.threads[t].state = TState::Waiting(Box::new(Wait { sig, local, global, span }));
        self.make_unrunnable(t);
        let g = self.infos[t].group as usize;
        self.groups[g].waiting += 1;
        self.try_release(g)
    }

    /// Where thread `t` is, as the barrier variables of seed 000 §3 see it: the instruction with
    /// the call stack that led to it, and the iteration counts of the loops around each.
    fn signature(&self, t: usize) -> Vec<u32> {
        let mut sig = Vec::new();
        for f in &self.threads[t].frames {
            let code = self.prog.procs[f.proc as usize].body.as_ref().unwrap();
            sig.push(f.proc);
            sig.push(f.pc);
            for &l in code.block_loops[code.block_of[f.pc as usize] as usize].iter() {
                sig.push(f.loops[l as usize]);
            }
        }
        sig
    }

    /// `__uniform(e)` at check `site`: the value must agree with every other thread that was at
    /// the same place (same call stack, same loop iterations).
    fn uniform(&mut self, t: usize, site: u32, v: Value, kind: CheckKind, span: Span) -> Result<(), Stop> {
        let key = (site, self.signature(t));
        match self.uniform.get(&key) {
            None => {
                self.uniform.insert(key, (v, t as u32));
                Ok(())
            }
            Some((w, _)) if *w == v => Ok(()),
            Some((w, other)) => {
                let other = *other;
                let loops = &self.threads[t].frames.last().unwrap().loops;
                let Stop::Fail(mut f) = assert_failure(kind, loops, span, None, t) else { unreachable!() };
                f.message = format!(
                    "`__uniform` does not hold: the value is {v} in {} but {w} in {}",
                    self.thread_name(t as u32),
                    self.thread_name(other)
                );
                f.threads.push(other);
                Err(Stop::Fail(f))
            }
        }
    }

    /// If every thread of group `g` is at a barrier or finished: continue, or report divergence.
    fn try_release(&mut self, g: usize) -> Result<(), Stop> {
        let gs = &self.groups[g];
        if gs.waiting == 0 || gs.waiting + gs.done < gs.members.len() {
            return Ok(());
        }
        let members = gs.members.clone();
        let waiting: Vec<u32> =
            members.iter().copied().filter(|&m| matches!(self.threads[m as usize].state, TState::Waiting(_))).collect();
        let w0 = waiting[0];
        if gs.done > 0 {
            let d = members.iter().copied().find(|&m| matches!(self.threads[m as usize].state, TState::Done)).unwrap();
            let msg = format!(
                "barrier divergence: {} waits at this barrier, but {} finished without reaching it",
                self.thread_name(w0),
                self.thread_name(d)
            );
            let mut f = Failure {
                kind: ErrorKind::Divergence,
                message: msg,
                span: wait_of(&self.threads, w0).span,
                label: format!("{} waits here", self.thread_name(w0)),
                related: Vec::new(),
                threads: vec![w0, d],
            };
            let ds = self.threads[d as usize].done_span;
            if ds != Span::DUMMY {
                f.related.push((ds, format!("{} finished here", self.thread_name(d))));
            }
            return Err(Stop::Fail(Box::new(f)));
        }
        for &w in &waiting[1..] {
            let (a, b) = (wait_of(&self.threads, w0), wait_of(&self.threads, w));
            if a.sig != b.sig {
                let same_place = a.span == b.span;
                let msg = if same_place {
                    format!(
                        "barrier divergence: {} and {} reach this barrier in different loop iterations (rule B2)",
                        self.thread_name(w0),
                        self.thread_name(w)
                    )
                } else {
                    format!(
                        "barrier divergence: {} and {} wait at different barriers (rule B1)",
                        self.thread_name(w0),
                        self.thread_name(w)
                    )
                };
                let f = Failure {
                    kind: ErrorKind::Divergence,
                    message: msg,
                    span: a.span,
                    label: format!("{} waits here", self.thread_name(w0)),
                    related: vec![(b.span, format!("{} waits here", self.thread_name(w)))],
                    threads: vec![w0, w],
                };
                return Err(Stop::Fail(Box::new(f)));
            }
        }
        // Barrier invariants, for every thread.
        let (local, global) = waiting.iter().fold((true, true), |(l, gl), &w| {
            let x = wait_of(&self.threads, w);
            (l && x.local, gl && x.global)
        });
        for &w in &waiting {
            let frame = self.threads[w as usize].frames.last().unwrap();
            let code = self.prog.procs[frame.proc as usize].body.as_ref().unwrap();
            if let Instr::Barrier(site) = &code.instrs[frame.pc as usize] {
                for (inv, ispan) in &site.invariants {
                    let frame = self.threads[w as usize].frames.last_mut().unwrap();
                    let mut cx = ctx!(self, w as usize, &frame.old, None, *ispan);
                    cx.spec_log = self.race.as_ref();
                    if !cx.eval_bool(inv, &mut frame.locals)? {
                        return Err(fail(
                            ErrorKind::BarrierInvariant,
                            format!("barrier invariant does not hold for {}", self.thread_name(w)),
                            *ispan,
                            "this barrier invariant fails",
                            vec![w],
                        ));
                    }
                }
            }
        }
        if let Some(r) = self.race.as_mut() {
            r.barrier(g as u32, local, global);
        }
        for &w in &waiting {
            let th = &mut self.threads[w as usize];
            th.state = TState::Running;
            th.frames.last_mut().unwrap().pc += 1;
            self.make_runnable(w as usize);
        }
        self.groups[g].waiting = 0;
        Ok(())
    }

    pub fn thread_name(&self, t: u32) -> String {
        self.infos[t as usize].id.to_string()
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }
}

/// Takes an edge: loop-counter actions, then the jump.
#[inline]
fn apply_edge(code: &Code, loops: &mut [u32], pc: &mut u32, e: &Edge) {
    if e.act != 0 {
        for a in code.actions[e.act as usize].iter() {
            match *a {
                LoopAct::Reset(l) => loops[l as usize] = 0,
                LoopAct::Inc(l) => loops[l as usize] += 1,
            }
        }
    }
    *pc = e.target;
}

/// Whether an expression only uses constants that are already defined.
fn ready(e: &Ex, vals: &[Option<Value>]) -> bool {
    let mut ok = true;
    visit_ex(e, &mut |x| match x {
        Ex::Const(i) => ok &= vals[*i as usize].is_some(),
        Ex::TConst(_) | Ex::Local(_) | Ex::Global(..) | Ex::OldGlobal(_) | Ex::SharedSelect(_) => ok = false,
        _ => {}
    });
    ok
}

fn wait_of(threads: &[Thread], t: u32) -> &Wait {
    match &threads[t as usize].state {
        TState::Waiting(w) => w,
        _ => unreachable!("a waiting thread"),
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
