//! Stepping a thread: its private (invisible) instructions in a tight loop, then one visible
//! instruction (an access to shared memory, a call, a return or a barrier), after which the
//! scheduler may switch threads.

use super::{assert_failure, Frame, Machine};
use crate::interleaving::code::*;
use crate::interleaving::eval::{Ctx, Stop};
use crate::interleaving::value::Value;
use ivl::ast::Span;

impl<'p> Machine<'p> {
    /// The hot loop: runs thread `t`'s private (invisible) assignments, checks and jumps, and
    /// stops before anything else.
    pub(super) fn run_private(&mut self, t: usize) -> Result<(), Stop> {
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
    pub(super) fn step(&mut self, t: usize) -> Result<(), Stop> {
        loop {
            self.run_private(t)?;
            self.steps += 1;
            if self.steps > self.max_steps {
                return Err(Stop::Limit(format!("step limit of {} reached (use --max-steps)", self.max_steps)));
            }
            if self.exec_instr(t)? {
                return Ok(());
            }
        }
    }

    /// Executes thread `t`'s current instruction; `true` when the thread then yields to the
    /// scheduler (the instruction was visible: it touched shared memory, called, returned or
    /// reached a barrier).
    fn exec_instr(&mut self, t: usize) -> Result<bool, Stop> {
        let prog: &'p Compiled = self.prog;
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
                let feasible = feasible_edges(&mut cx, edges, locals)?;
                let chosen = match feasible.len() {
                    0 => {
                        return Err(Stop::Infeasible(format!("no target of a goto is feasible (byte {})", span.start)))
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
            Instr::Assign(lhss, rhss) => self.assign(t, lhss, rhss, span)?,
            Instr::Atomic(site) => self.atomic(t, site, span)?,
            Instr::Havoc(lhss, cons) => self.havoc(t, lhss, cons, span)?,
            Instr::Call(site) => {
                self.call(t, site, span)?;
                return Ok(true);
            }
            Instr::Return => {
                self.ret(t, span)?;
                return Ok(true);
            }
            Instr::Barrier(site) => {
                self.barrier(t, site, span)?;
                return Ok(true);
            }
            Instr::Uniform { e, kind, site } => {
                let v = cx.eval(e, locals)?;
                let kind = *kind;
                self.uniform(t, *site, v, kind, span)?;
                self.threads[t].frames.last_mut().unwrap().pc += 1;
            }
            Instr::Unsupported(d) => return Err(Stop::Unsupported(d.clone())),
        }
        Ok(visible)
    }
}

/// The targets of a `goto` whose guards hold (evaluated in order; a false guard stops its
/// target's evaluation).
fn feasible_edges(cx: &mut Ctx, edges: &[GuardedEdge], locals: &mut [Value]) -> Result<Vec<usize>, Stop> {
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
    Ok(feasible)
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
