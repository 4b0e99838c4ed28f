//! Calls and returns: contracts checked (free ones assumed; their reads are not accesses of the
//! program), a frame pushed for a procedure with a body, and arbitrary outputs and modified
//! globals that satisfy the postconditions for one without.

use super::{definitions, Machine, TState, HAVOC_TRIES, MAX_FRAMES};
use crate::interleaving::code::*;
use crate::interleaving::eval::{flatten_keys, Ctx, Failure, Stop};
use crate::interleaving::race::Access;
use crate::interleaving::rng::gen_value;
use crate::interleaving::value::{MapKey, Value};
use ivl::ast::Span;
use ivl::diag::ErrorKind;
use std::rc::Rc;

/// The globals a call to a procedure without body changed: a whole variable (`None`) or one
/// location of it.
type Changes = Vec<(u32, Option<Vec<MapKey>>)>;

impl Machine<'_> {
    pub(super) fn call(&mut self, t: usize, site: &CallSite, span: Span) -> Result<(), Stop> {
        let prog = self.prog;
        let callee = &prog.procs[site.proc as usize];
        if self.threads[t].frames.len() >= MAX_FRAMES {
            return Err(Stop::Limit(format!("calls nested more than {MAX_FRAMES} deep")));
        }
        let args = self.eval_all(t, &site.args, span)?;
        let old: Rc<[Value]> = if callee.uses_old { Rc::from(self.mem.globals.clone()) } else { self.empty.clone() };
        let mut locals = self.fresh_frame_locals(site.proc, args);
        self.check_preconditions(t, callee, &old, &mut locals, span)?;
        if callee.body.is_some() {
            let frame = self.new_frame(site.proc, locals, old);
            self.threads[t].frames.push(frame);
            return Ok(());
        }
        self.call_bodiless(t, site, &old, locals, span)
    }

    /// Preconditions: checked (free ones assumed). Contracts are specifications: their reads
    /// are not accesses of the program.
    fn check_preconditions(
        &mut self,
        t: usize,
        callee: &ProcInfo,
        old: &[Value],
        locals: &mut [Value],
        span: Span,
    ) -> Result<(), Stop> {
        let mut cx = ctx!(self, t, old, None, span);
        cx.spec_log = self.race.as_ref();
        for r in &callee.requires {
            if !cx.eval_bool(&r.e, locals)? {
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
        Ok(())
    }

    /// No body: outputs and modified globals get arbitrary values satisfying the ensures; the
    /// writes to shared memory are logged, and the outputs assigned.
    fn call_bodiless(
        &mut self,
        t: usize,
        site: &CallSite,
        old: &[Value],
        mut locals: Vec<Value>,
        span: Span,
    ) -> Result<(), Stop> {
        let prog = self.prog;
        let callee = &prog.procs[site.proc as usize];
        let changed = self.havoc_until_ensures(t, callee, old, &mut locals, span)?;
        self.log_call_writes(t, changed, span)?;
        let n_ins = callee.n_ins();
        let out_vals: Vec<Value> = locals[n_ins..n_ins + callee.n_outs()].to_vec();
        for (l, v) in site.outs.iter().zip(out_vals) {
            self.write(t, l.place, &[], v, l.span, true)?;
        }
        self.threads[t].frames.last_mut().unwrap().pc += 1;
        Ok(())
    }

    /// Draws outputs and modified globals (first try: globals unchanged, as a havoc may pick the
    /// old values) until the postconditions hold, with their `x == e` conjuncts as definitions.
    fn havoc_until_ensures(
        &mut self,
        t: usize,
        callee: &ProcInfo,
        old: &[Value],
        locals: &mut [Value],
        span: Span,
    ) -> Result<Changes, Stop> {
        let prog = self.prog;
        let n_ins = callee.n_ins();
        let outs = n_ins..n_ins + callee.n_outs();
        let saved: Vec<Value> = callee.modifies.iter().map(|&g| self.read_place(t, Place::Global(g))).collect();
        let mut changed = Changes::new();
        for attempt in 0..HAVOC_TRIES {
            changed.clear();
            for s in outs.clone() {
                locals[s] = gen_value(&prog.types, callee.slot_tys[s], &mut self.rng);
            }
            for (k, &g) in callee.modifies.iter().enumerate() {
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
            self.define_from_ensures(t, callee, old, locals, &mut changed, span)?;
            let mut cx = ctx!(self, t, old, None, span);
            let mut all = true;
            for e in &callee.ensures {
                if !cx.eval_bool(&e.e, locals)? {
                    all = false;
                    break;
                }
            }
            if all {
                return Ok(changed);
            }
        }
        Err(Stop::Infeasible(format!(
            "no outputs satisfy the postcondition of `{}` (a procedure without body)",
            callee.name
        )))
    }

    /// The `x == e` conjuncts of the postconditions as definitions of outputs and modified
    /// globals (one whose right-hand side cannot be evaluated is skipped).
    fn define_from_ensures(
        &mut self,
        t: usize,
        callee: &ProcInfo,
        old: &[Value],
        locals: &mut [Value],
        changed: &mut Changes,
        span: Span,
    ) -> Result<(), Stop> {
        let n_ins = callee.n_ins();
        let outs = n_ins..n_ins + callee.n_outs();
        for e in &callee.ensures {
            for (target, rhs) in definitions(&e.e) {
                let mut cx = ctx!(self, t, old, None, span);
                match target {
                    Ex::Local(s) if outs.contains(&(*s as usize)) => {
                        if let Ok(v) = cx.eval(rhs, locals) {
                            locals[*s as usize] = v;
                        }
                    }
                    Ex::Global(g, _) if callee.modifies.contains(g) => {
                        if let Ok(v) = cx.eval(rhs, locals) {
                            changed.push((*g, None));
                            self.write(t, Place::Global(*g), &[], v, span, false)?;
                        }
                    }
                    Ex::SharedSelect(s) if callee.modifies.contains(&s.var) => {
                        let keys = cx.keys(&s.levels, locals);
                        if let (Ok(keys), Ok(v)) = (keys, cx.eval(rhs, locals)) {
                            changed.push((s.var, Some(keys.clone())));
                            self.write(t, Place::Global(s.var), &keys, v, span, false)?;
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Logs the writes a bodiless call made to shared memory.
    fn log_call_writes(&mut self, t: usize, changed: Changes, span: Span) -> Result<(), Stop> {
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
        Ok(())
    }

    pub(super) fn ret(&mut self, t: usize, span: Span) -> Result<(), Stop> {
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
}
