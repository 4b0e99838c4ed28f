//! Rule family "access patterns" (seed 001 §4.3): the rules that relate the offsets a thread
//! logs for a shared array to its thread id, so that the race checks of two distinct threads
//! can be discharged.
//!
//! An access `A[e]` in the loop is read as a sum of terms (operand order does not matter),
//! each term classified ([`super::facts::Class`]) as uniform and loop-invariant (`U`), thread
//! dependent — local id (`L`) or group id only (`G`) — and loop-invariant, or modified by the
//! loop (`V`). With `off = __write_offset(A)` and `has = __write(A)` (reads alike):
//! - *thread id plus offset* (`A[lid + C]`, no `V`): `has ==> off - U == L + G`;
//! - *strided* (`A[i * SZ + lid + C]`): `has ==> (off - U - G) mod SZ == L`;
//! - *strength reduced* (`i := lid; … A[i + C]; … i := i + SZ`): `i mod SZ == lid` — more
//!   generally `(i - U0 - G0) mod SZ == L0` for the entry value `U0 + G0 + L0` — and
//!   `has ==> (off - U - U0 - G - G0) mod SZ == L0 + L`;
//! - *contiguous range* (`A[lid * C + i]`): `has ==> lid * C <= off - R` and
//!   `has ==> off - R < lid * C + C` (`R` the other invariant terms); the same with a group id
//!   (`A[gid * C + i]`) under its own rule name.

use super::arith::{Num, Rel, Term};
use super::cx::LoopCx;
use super::facts::{Access, Class, Update};
use ivl::ast::*;

pub const OFFSET: &str = "access-offset";
pub const STRIDED: &str = "access-strided";
pub const STRENGTH_REDUCED: &str = "strength-reduced";
pub const CONTIGUOUS: &str = "access-contiguous";
pub const CONTIGUOUS_GROUP: &str = "access-contiguous-group";

/// The terms of a sum split by class.
struct Split {
    uniform: Vec<Term>,
    lid: Vec<Term>,
    group: Vec<Term>,
    varying: Vec<(Term, Class)>,
}

fn split(cx: &LoopCx, e: &Expr) -> Option<Split> {
    let mut s = Split { uniform: vec![], lid: vec![], group: vec![], varying: vec![] };
    for t in cx.arith().terms(e) {
        let c = cx.class(&t.expr);
        if c.other {
            return None;
        }
        if c.varying {
            s.varying.push((t, c));
        } else if c.lid {
            s.lid.push(t);
        } else if c.group {
            s.group.push(t);
        } else {
            s.uniform.push(t);
        }
    }
    Some(s)
}

pub fn generate(cx: &mut LoopCx) {
    for acc in cx.lf.accesses.clone() {
        if acc.levels != 1 {
            continue;
        }
        let Some(num) = cx.num(&acc.index) else { continue };
        let Some(s) = split(cx, &acc.index) else { continue };
        if s.varying.is_empty() {
            offset(cx, &acc, num, &s);
        } else {
            strided(cx, &acc, num, &s);
            contiguous(cx, &acc, num, &s);
        }
    }
}

fn offset(cx: &mut LoopCx, acc: &Access, num: Num, s: &Split) {
    if s.lid.is_empty() && s.group.is_empty() {
        return;
    }
    let ar = cx.arith();
    let off = cx.offset(&acc.array, acc.write);
    let thread: Vec<Term> = s.lid.iter().chain(&s.group).cloned().collect();
    let body = Expr::eq(ar.minus_terms(num, off, &s.uniform), ar.sum(num, &thread));
    let e = Expr::implies(cx.logged(&acc.array, acc.write), body);
    cx.push(OFFSET, e);
}

fn strided(cx: &mut LoopCx, acc: &Access, num: Num, s: &Split) {
    let [(t, _)] = s.varying.as_slice() else { return };
    if t.neg {
        return;
    }
    let off = cx.offset(&acc.array, acc.write);
    let has = cx.logged(&acc.array, acc.write);
    // `A[i + ...]` with a strength-reduced counter `i`.
    if let ExprKind::Var(i) = &t.expr.kind {
        let Update::Additive { step, down: false } = cx.update(&i.name) else { return };
        if cx.arith().lit_value(&step).is_some_and(|v| v == 1.into()) || cx.num(&step) != Some(num) {
            return;
        }
        let Some(e0) = cx.lf.init.get(&i.name).cloned() else { return };
        let Some(s0) = split(cx, &e0) else { return };
        if !s0.varying.is_empty() {
            return;
        }
        let ar = cx.arith();
        let i_rest: Vec<Term> = s0.uniform.iter().chain(&s0.group).cloned().collect();
        let lhs = ar.rem(num, ar.minus_terms(num, cx.var(&i.name), &i_rest), step.clone());
        let e = Expr::eq(lhs, ar.sum(num, &s0.lid));
        cx.push(STRENGTH_REDUCED, e);
        let rest: Vec<Term> = s.uniform.iter().chain(&s.group).chain(&i_rest).cloned().collect();
        let rhs: Vec<Term> = s0.lid.iter().chain(&s.lid).cloned().collect();
        let lhs = ar.rem(num, ar.minus_terms(num, off, &rest), step);
        let e = Expr::implies(has, Expr::eq(lhs, ar.sum(num, &rhs)));
        cx.push(STRIDED, e);
        return;
    }
    // `A[i * S + ...]`.
    if s.lid.is_empty() {
        return;
    }
    let Some((a, b)) = cx.arith().factors(&t.expr) else { return };
    let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Var(v) if cx.lf.modified.contains(&v.name));
    let stride = if is_var(a) && cx.class(b).is_uniform_invariant() {
        b.clone()
    } else if is_var(b) && cx.class(a).is_uniform_invariant() {
        a.clone()
    } else {
        return;
    };
    let ar = cx.arith();
    let rest: Vec<Term> = s.uniform.iter().chain(&s.group).cloned().collect();
    let lhs = ar.rem(num, ar.minus_terms(num, off, &rest), stride);
    let e = Expr::implies(has, Expr::eq(lhs, ar.sum(num, &s.lid)));
    cx.push(STRIDED, e);
}

fn contiguous(cx: &mut LoopCx, acc: &Access, num: Num, s: &Split) {
    let thread: Vec<Term> = s.lid.iter().chain(&s.group).cloned().collect();
    for (k, t) in thread.iter().enumerate() {
        if t.neg {
            continue;
        }
        let Some((a, b)) = cx.arith().factors(&t.expr) else { continue };
        let (ca, cb) = (cx.class(a), cx.class(b));
        let (x_class, size) = if ca.is_thread_invariant() && cb.is_uniform_invariant() {
            (ca, b.clone())
        } else if cb.is_thread_invariant() && ca.is_uniform_invariant() {
            (cb, a.clone())
        } else {
            continue;
        };
        let rest: Vec<Term> = s
            .uniform
            .iter()
            .chain(thread.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, t)| t))
            .cloned()
            .collect();
        let ar = cx.arith();
        let rel_off = ar.minus_terms(num, cx.offset(&acc.array, acc.write), &rest);
        let lo = ar.cmp(num, Rel::Le, false, t.expr.clone(), rel_off.clone());
        let hi = ar.cmp(num, Rel::Lt, false, rel_off, ar.add(num, t.expr.clone(), size));
        let rule = if x_class.lid { CONTIGUOUS } else { CONTIGUOUS_GROUP };
        let has = cx.logged(&acc.array, acc.write);
        cx.push(rule, Expr::implies(has.clone(), lo));
        cx.push(rule, Expr::implies(has, hi));
    }
}
