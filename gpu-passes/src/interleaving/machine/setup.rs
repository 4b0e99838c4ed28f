//! Setting up a run: the grid's threads, storage slots and initial memory, the uniform
//! parameters of the root procedure, and the search for inputs that satisfy its `requires`
//! (inputs are drawn, and defined by `x == e` conjuncts, until they hold in every thread).

use super::Mem;
use super::{
    definitions, fail, store_path, GroupState, Machine, Mode, TState, Thread, ThreadInfo, MAX_THREADS, SOLVE_TRIES,
};
use crate::interleaving::code::*;
use crate::interleaving::config::{RunConfig, ThreadId};
use crate::interleaving::eval::{int_value_of_type, Ctx, Stop, UfTable};
use crate::interleaving::inputs::{to_value, Inputs};
use crate::interleaving::race::RaceLog;
use crate::interleaving::rng::gen_value;
use crate::interleaving::rng::Rng;
use crate::interleaving::value::Value;
use ivl::ast::Span;
use ivl::diag::{Diagnostic, ErrorKind};
use std::rc::Rc;

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

    pub(super) fn slot_var(&self, slot: u32) -> u32 {
        for table in &self.mem.slots {
            if let Some(g) = table.iter().position(|&s| s == slot) {
                return g as u32;
            }
        }
        0
    }

    pub(super) fn setup_threads(
        &mut self,
        cfg: &RunConfig,
        local: [u64; 3],
        groups: [u64; 3],
        kernel: bool,
    ) -> Result<(), Stop> {
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
    pub(super) fn setup_memory_and_params(&mut self, inputs: &Inputs) -> Result<(), Stop> {
        let prog = self.prog;
        let n_slots = self.assign_slots();
        self.check_inputs(inputs)?;
        let root = &prog.procs[self.root as usize];
        let n_ins = root.n_ins();
        let mut last_fail = None;
        for _attempt in 0..SOLVE_TRIES {
            self.mem.globals = self.draw_memory(inputs, n_slots)?;
            let (params, fixed) = self.draw_params(inputs);
            let fixed_mem: Vec<bool> = prog.globals.iter().map(|g| inputs.memory(&g.name).is_some()).collect();
            // The root frame as the requires see it (parameters, uniform across threads).
            let mut proto = self.fresh_frame_locals(self.root, params);
            let old: Rc<[Value]> = if root.uses_old { Rc::from(self.mem.globals.clone()) } else { self.empty.clone() };
            self.define_from_requires(&fixed, &fixed_mem, &mut proto, &old)?;
            match self.check_root_requires(&mut proto, &old) {
                Ok(()) => {
                    self.start_threads(proto[..n_ins].to_vec(), old);
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

    /// Storage slots: one per global variable, one per group for `{:group_shared}` ones.
    /// Returns the number of slots.
    fn assign_slots(&mut self) -> usize {
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
        next as usize
    }

    /// The given inputs name parameters and variables that exist, with values of their types.
    fn check_inputs(&mut self, inputs: &Inputs) -> Result<(), Stop> {
        let prog = self.prog;
        let root = &prog.procs[self.root as usize];
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
        Ok(())
    }

    /// Initial memory: the given values, arbitrary ones elsewhere.
    fn draw_memory(&mut self, inputs: &Inputs, n_slots: usize) -> Result<Vec<Value>, Stop> {
        let prog = self.prog;
        let n_groups = self.groups.len();
        let mut globals = vec![Value::Bool(false); n_slots];
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
        Ok(globals)
    }

    /// The uniform parameters: the given values, arbitrary ones elsewhere; and which were given.
    fn draw_params(&mut self, inputs: &Inputs) -> (Vec<Value>, Vec<bool>) {
        let prog = self.prog;
        let root = &prog.procs[self.root as usize];
        let n_ins = root.n_ins();
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
        (params, fixed)
    }

    /// Definitions from the requires, in the first thread of every group.
    fn define_from_requires(
        &mut self,
        fixed: &[bool],
        fixed_mem: &[bool],
        proto: &mut [Value],
        old: &[Value],
    ) -> Result<(), Stop> {
        let prog = self.prog;
        let root = &prog.procs[self.root as usize];
        let n_ins = root.n_ins();
        for grp in 0..self.groups.len() {
            let Some(&t) = self.groups[grp].members.first() else {
                continue;
            };
            for r in &root.requires {
                for (target, rhs) in definitions(&r.e) {
                    self.define(t as usize, target, rhs, fixed, fixed_mem, n_ins, proto, old)?;
                }
            }
        }
        Ok(())
    }

    /// Every thread starts in the root procedure with the parameters found.
    fn start_threads(&mut self, params: Vec<Value>, old: Rc<[Value]>) {
        self.params = params;
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
    }

    /// Applies a definition `target := rhs` (evaluated in thread `t`) to the root frame's
    /// parameters or the initial memory, if `target` is an input nobody fixed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn define(
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
                let keys = cx.keys(&s.levels, locals)?;
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
    pub(super) fn check_root_requires(&mut self, locals: &mut [Value], old: &[Value]) -> Result<(), Stop> {
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
}
