//! Statements that write: assignments (all right-hand sides and indices first), `havoc` with
//! the `assume`s that constrain it, and atomics; writes to shared memory are logged for races.

use super::{definitions, store_path, Machine, HAVOC_TRIES};
use crate::interleaving::code::*;
use crate::interleaving::eval::{flatten_keys, Ctx, Stop};
use crate::interleaving::race::Access;
use crate::interleaving::rng::gen_value;
use crate::interleaving::types::TyId;
use crate::interleaving::value::{MapKey, Value};
use ivl::ast::Span;

impl Machine<'_> {
    /// Evaluates expressions in thread `t`'s top frame, in order (reads of shared memory logged).
    pub(super) fn eval_all(&mut self, t: usize, es: &[Ex], span: Span) -> Result<Vec<Value>, Stop> {
        let frame = self.threads[t].frames.last_mut().unwrap();
        let mut cx = ctx!(self, t, &frame.old, self.race.as_mut(), span);
        es.iter().map(|e| cx.eval(e, &mut frame.locals)).collect()
    }

    pub(super) fn eval_keys(
        &mut self,
        t: usize,
        levels: &[Box<[Ex]>],
        log: bool,
        span: Span,
    ) -> Result<Vec<MapKey>, Stop> {
        let frame = self.threads[t].frames.last_mut().unwrap();
        let log = if log { self.race.as_mut() } else { None };
        let mut cx = ctx!(self, t, &frame.old, log, span);
        cx.keys(levels, &mut frame.locals)
    }

    /// Writes a value to a place (logging writes to shared memory when `log`).
    pub(super) fn write(
        &mut self,
        t: usize,
        place: Place,
        keys: &[MapKey],
        v: Value,
        span: Span,
        log: bool,
    ) -> Result<(), Stop> {
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

    pub(super) fn assign(&mut self, t: usize, lhss: &[Lhs], rhss: &[Ex], span: Span) -> Result<(), Stop> {
        let vals = self.eval_all(t, rhss, span)?;
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
    pub(super) fn atomic(&mut self, t: usize, site: &AtomicSite, span: Span) -> Result<(), Stop> {
        let args = self.eval_all(t, &site.args, span)?;
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
        let Some(new) = crate::interleaving::atomic::apply(site.op, &old, &args) else {
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

    pub(super) fn place_type(&self, t: usize, place: Place) -> TyId {
        match place {
            Place::Local(s) => {
                let p = &self.prog.procs[self.threads[t].frames.last().unwrap().proc as usize];
                p.slot_tys.get(s as usize).copied().unwrap_or(self.prog.bool_ty)
            }
            Place::Global(g) => self.prog.globals[g as usize].ty,
        }
    }

    pub(super) fn read_place(&self, t: usize, place: Place) -> Value {
        match place {
            Place::Local(s) => self.threads[t].frames.last().unwrap().locals[s as usize].clone(),
            Place::Global(g) => {
                self.mem.globals[self.mem.slots[self.infos[t].group as usize][g as usize] as usize].clone()
            }
        }
    }

    /// Evaluates constraints in thread `t`'s top frame; `Ok(false)` if one is false.
    pub(super) fn constraints_hold(&mut self, t: usize, cons: &[Ex], log: bool, span: Span) -> Result<bool, Stop> {
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
    pub(super) fn havoc(&mut self, t: usize, lhss: &[Lhs], cons: &[Ex], span: Span) -> Result<(), Stop> {
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
}
