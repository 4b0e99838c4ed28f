//! Barriers (seed 000 §3, Fig. 4d): arrival, the barrier variables of rules B1/B2 (where a
//! thread is: the call stack and loop iterations), divergence, barrier invariants and release;
//! and the cross-thread `__uniform` checks, which compare threads at the same place.

use super::{assert_failure, fail, Machine, TState, Thread, Wait};
use crate::interleaving::code::*;
use crate::interleaving::eval::{truthy, Ctx, Failure, Stop};
use crate::interleaving::value::Value;
use ivl::ast::Span;
use ivl::diag::ErrorKind;

impl Machine<'_> {
    pub(super) fn barrier(&mut self, t: usize, site: &BarrierSite, span: Span) -> Result<(), Stop> {
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
    pub(super) fn signature(&self, t: usize) -> Vec<u32> {
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
    pub(super) fn uniform(&mut self, t: usize, site: u32, v: Value, kind: CheckKind, span: Span) -> Result<(), Stop> {
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
    pub(super) fn try_release(&mut self, g: usize) -> Result<(), Stop> {
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
}

fn wait_of(threads: &[Thread], t: u32) -> &Wait {
    match &threads[t as usize].state {
        TState::Waiting(w) => w,
        _ => unreachable!("a waiting thread"),
    }
}
