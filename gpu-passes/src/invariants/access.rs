//! Rule family "access patterns" (seed 001 §4.3): the rules that relate the offsets a thread
//! logs for a shared array to its thread id, so that the race checks of two distinct threads
//! can be discharged.
//!
//! An access `A[e]` in the loop is read as a sum of terms (operand order does not matter),
//! each term classified ([`super::facts::Class`]) as uniform and loop-invariant (`U`), thread
//! dependent — local id (`L`) or group id only (`G`) — and loop-invariant, or modified by the
//! loop (`V`). With `off = __write_offset(A)` and `has = __write(A)` (reads alike):
//! - *thread id plus offset* (`A[lid + C]`, no `V`): `has ==> off - U == L + G`;
//! - *strided* (`A[i * SZ + lid + C]`): `has ==> (off - U - G) mod SZ == L`; when `L` has
//!   *wide* terms (a thread id times a uniform variable, `ly * N`), also the form with them
//!   subtracted on the left (added for the corpus; the same for the two forms below);
//! - *strength reduced* (`i := lid; … A[i + C]; … i := i + SZ`): `i mod SZ == lid` — more
//!   generally `(i - U0 - G0) mod SZ == L0` for the entry value `U0 + G0 + L0` — and
//!   `has ==> (off - U - U0 - G - G0) mod SZ == L0 + L`;
//! - *grid stride* (`i := gid; … A[i]; … i := i + global size`, the grid-stride loop of CUDA
//!   and OpenCL; GPUVerify's strength-reduction analysis reads such a counter as
//!   `i mod stride == entry value`, its `ModStrideConstraint`): when the entry value has a
//!   group-id part and the step mentions a `num_groups_*` size, `(i - U0) mod SZ == G0 + L0` and `has ==> (off - U - U0) mod SZ == G0 + G +
//!   L0 + L` instead of the two forms above — the group id stays on the right, so that two
//!   threads of different groups get different residues (the forms above subtract it and cannot
//!   tell them apart, and Z3 spent Houdini's whole time limit on them);
//! - *contiguous range* (`A[lid * C + i]`): `has ==> lid * C <= off - R` and
//!   `has ==> off - R < lid * C + C` (`R` the other invariant terms); the same with a group id
//!   (`A[gid * C + i]`) under its own rule name;
//! - *several offsets* (added for the corpus: a loop body that reads `A[lid]` and `A[lid + s]`
//!   logs either): the disjunction of the thread-id-plus-offset equations of the loop's
//!   accesses of one kind to one array;
//! - *bounded like its counter* (added for the corpus: `A[i]` with `i := 4 * lid` counting up
//!   while `i < 4 * lid + 4`): with `off - R` the counter's part of the offset, the bounds the
//!   loop gives its counter — the entry value on the side the counter moves away from, and the
//!   guard, which held when the access was made — hold for `off - R`;
//! - *pinned counters* (added for the corpus: `for (i = 0; i < 16; i += 16) A[lid + i]`, a
//!   loop that runs once): the access is also read with the counter at its start value
//!   ([`super::pinned`]), which gives it the thread-id-plus-offset equation.

use super::arith::{Num, Rel, Term};
use super::cx::LoopCx;
use super::facts::{Class, LoopAccess, Update};
use ivl::ast::*;

pub const OFFSET: &str = "access-offset";
pub const STRIDED: &str = "access-strided";
pub const STRENGTH_REDUCED: &str = "strength-reduced";
pub const GRID_STRIDE: &str = "grid-stride";
pub const CONTIGUOUS: &str = "access-contiguous";
pub const CONTIGUOUS_GROUP: &str = "access-contiguous-group";
pub const OFFSET_ANY: &str = "access-offset-any";
pub const COUNTER_RANGE: &str = "access-counter-range";
pub const BLOCK: &str = "access-group-block";

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
    strength_reduced(cx);
    // Offset equations per (array, write), for the disjunction.
    let mut equations: Vec<((Name, bool), Vec<Expr>)> = Vec::new();
    // Each access as written, then with its pinned counters at their start values.
    let accesses: Vec<LoopAccess> = cx
        .accesses()
        .into_iter()
        .flat_map(|a| {
            let pinned = super::pinned::pin(cx, &a);
            std::iter::once(a).chain(pinned)
        })
        .collect();
    for acc in accesses {
        if acc.levels != 1 {
            continue;
        }
        let Some(num) = cx.num(&acc.index) else { continue };
        let Some(s) = split(cx, &acc.index) else { continue };
        if s.varying.is_empty() {
            if let Some(eq) = offset(cx, &acc, num, &s) {
                let key = (acc.array.clone(), acc.write);
                match equations.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, v)) => {
                        let text = ivl::printer::print_expr(&eq);
                        if !v.iter().any(|e| ivl::printer::print_expr(e) == text) {
                            v.push(eq);
                        }
                    }
                    None => equations.push((key, vec![eq])),
                }
            }
        } else {
            strided(cx, &acc, num, &s);
            contiguous(cx, &acc, num, &s);
            counter_range(cx, &acc, num, &s);
        }
    }
    for ((array, write), eqs) in equations {
        if eqs.len() < 2 || eqs.len() > 4 {
            continue;
        }
        let mut it = eqs.into_iter();
        let first = it.next().expect("two equations");
        let any = it.fold(first, Expr::or);
        let e = Expr::implies(cx.logged(&array, write), any);
        cx.push(OFFSET_ANY, e);
    }
}

/// A counter advanced by a uniform step other than 1 (`i := lid; … i := i + SZ`): its step,
/// and its entry value split into the local-id part and the rest.
struct StrengthReduced {
    step: Expr,
    lid: Vec<Term>,
    group: Vec<Term>,
    uniform: Vec<Term>,
}

impl StrengthReduced {
    /// A grid-stride counter: the entry value has a group-id part and the step counts groups
    /// (mentions a `num_groups_*` size: `group_size_x * num_groups_x`, OpenCL's
    /// `get_global_size(0)`). Its residue modulo the step is the whole entry value.
    /// With sizes fixed on the command line the step is a literal product (`64 * 16`): it is a
    /// grid size when it equals the number of threads of the grid in some dimension.
    fn grid(&self, cx: &LoopCx) -> bool {
        if self.group.is_empty() {
            return false;
        }
        if ivl::visit::free_vars(&self.step).iter().any(|v| v.starts_with("num_groups_")) {
            return true;
        }
        let sizes = &cx.facts.sizes;
        let (Some(local), Some(groups), Some(step)) = (sizes.local, sizes.groups, constant(cx, &self.step)) else {
            return false;
        };
        (0..3).any(|d| step == (local[d] * groups[d]).into())
    }

    /// The entry value's terms other than the local id.
    fn rest(&self) -> Vec<Term> {
        self.uniform.iter().chain(&self.group).cloned().collect()
    }
}

/// The value of a literal or a product of literals.
fn constant(cx: &LoopCx, e: &Expr) -> Option<num_bigint::BigInt> {
    if let Some(v) = cx.arith().lit_value(e) {
        return Some(v);
    }
    let (a, b) = cx.arith().factors(e)?;
    Some(constant(cx, a)? * constant(cx, b)?)
}

fn strength_reduced_counter(cx: &LoopCx, i: &Name, num: Num) -> Option<StrengthReduced> {
    let Update::Additive { step, down: false } = cx.update(i) else {
        return None;
    };
    if cx.arith().lit_value(&step).is_some_and(|v| v == 1.into()) || cx.num(&step) != Some(num) {
        return None;
    }
    let e0 = cx.lf.init.get(i)?.clone();
    let s0 = split(cx, &e0)?;
    if !s0.varying.is_empty() {
        return None;
    }
    Some(StrengthReduced { step, lid: s0.lid, group: s0.group, uniform: s0.uniform })
}

/// `(i - U0 - G0) mod SZ == L0` for every strength-reduced counter.
fn strength_reduced(cx: &mut LoopCx) {
    for (i, num, _) in cx.counters() {
        let Some(sr) = strength_reduced_counter(cx, &i, num) else {
            continue;
        };
        let ar = cx.arith();
        if !sr.grid(cx) {
            let lhs = ar.rem(num, ar.minus_terms(num, cx.var(&i), &sr.rest()), sr.step);
            cx.push(STRENGTH_REDUCED, Expr::eq(lhs, ar.sum(num, &sr.lid)));
        } else {
            let lhs = ar.rem(num, ar.minus_terms(num, cx.var(&i), &sr.uniform), sr.step);
            let thread: Vec<Term> = sr.group.iter().chain(&sr.lid).cloned().collect();
            cx.push(GRID_STRIDE, Expr::eq(lhs, ar.sum(num, &thread)));
        }
    }
}

/// Proposes `has ==> off - U == L + G` and returns the equation.
fn offset(cx: &mut LoopCx, acc: &LoopAccess, num: Num, s: &Split) -> Option<Expr> {
    if s.lid.is_empty() && s.group.is_empty() {
        return None;
    }
    let ar = cx.arith();
    let off = cx.offset(&acc.array, acc.write);
    let thread: Vec<Term> = s.lid.iter().chain(&s.group).cloned().collect();
    let body = Expr::eq(ar.minus_terms(num, off, &s.uniform), ar.sum(num, &thread));
    let e = Expr::implies(cx.logged(&acc.array, acc.write), body.clone());
    cx.push(OFFSET, e);
    Some(body)
}

/// `A[i + R]` with a counter `i`: the counter's bounds for `off - R`.
fn counter_range(cx: &mut LoopCx, acc: &LoopAccess, num: Num, s: &Split) {
    let [(t, _)] = s.varying.as_slice() else { return };
    let ExprKind::Var(i) = &t.expr.kind else { return };
    if t.neg {
        return;
    }
    let Update::Additive { down, .. } = cx.update(&i.name) else {
        return;
    };
    let ar = cx.arith();
    let rest: Vec<Term> = s.uniform.iter().chain(&s.lid).chain(&s.group).cloned().collect();
    let rel_off = ar.minus_terms(num, cx.offset(&acc.array, acc.write), &rest);
    let has = cx.logged(&acc.array, acc.write);
    let signs: &[bool] = if num == Num::Int { &[true] } else { &[false, true] };
    if let Some(e0) = cx.lf.init.get(&i.name).cloned() {
        for &signed in signs {
            let e = if down {
                ar.cmp(num, Rel::Le, signed, rel_off.clone(), e0.clone())
            } else {
                ar.cmp(num, Rel::Le, signed, e0.clone(), rel_off.clone())
            };
            cx.push(COUNTER_RANGE, Expr::implies(has.clone(), e));
        }
    }
    let map: std::collections::HashMap<Name, Expr> = [(i.name.clone(), rel_off)].into_iter().collect();
    for g in cx.lf.guards.clone() {
        if !ivl::visit::free_vars(&g).contains(&i.name) || cx.class(&g).other {
            continue;
        }
        let e = Expr::implies(has.clone(), ivl::visit::substitute(&g, &map));
        cx.push(COUNTER_RANGE, e);
    }
}

fn strided(cx: &mut LoopCx, acc: &LoopAccess, num: Num, s: &Split) {
    let [(t, _)] = s.varying.as_slice() else { return };
    if t.neg {
        return;
    }
    let off = cx.offset(&acc.array, acc.write);
    let has = cx.logged(&acc.array, acc.write);
    // `A[i + ...]` with a strength-reduced counter `i`.
    if let ExprKind::Var(i) = &t.expr.kind {
        let Some(sr) = strength_reduced_counter(cx, &i.name, num) else {
            return;
        };
        let (rule, rest, thread) = if !sr.grid(cx) {
            let rest: Vec<Term> = s.uniform.iter().chain(&s.group).chain(&sr.rest()).cloned().collect();
            (STRIDED, rest, sr.lid.iter().chain(&s.lid).cloned().collect::<Vec<Term>>())
        } else {
            let uniform: Vec<Term> = s.uniform.iter().chain(&sr.uniform).cloned().collect();
            (GRID_STRIDE, uniform, sr.group.iter().chain(&s.group).chain(&sr.lid).chain(&s.lid).cloned().collect())
        };
        residue(cx, rule, (num, off, has), &rest, &thread, &sr.step);
        return;
    }
    // `A[i * S + ...]`.
    if s.lid.is_empty() {
        return;
    }
    let Some(stride) = counter_stride(cx, num, &t.expr) else {
        return;
    };
    let rest: Vec<Term> = s.uniform.iter().chain(&s.group).cloned().collect();
    residue(cx, STRIDED, (num, off.clone(), has.clone()), &rest, &s.lid, &stride);
    // The group ids on the right too (`A[face * W * W + y * W + x]`, `x`, `y` global ids:
    // CUDA's simpleCubemapTexture), as for a grid-stride counter: two threads of different
    // groups then have different residues. GPUVerify's `accessedOffsetsSatisfyPredicates`
    // candidate for such an access keeps the whole thread part likewise.
    if !s.group.is_empty() {
        let thread: Vec<Term> = s.group.iter().chain(&s.lid).cloned().collect();
        residue(cx, STRIDED, (num, off, has), &s.uniform, &thread, &stride);
    }
}

/// The stride `S` of a counter term `i * S` (`i` modified by the loop, `S` a product of
/// uniform loop-invariant factors: `face * W * W` has stride `W * W`).
fn counter_stride(cx: &LoopCx, num: Num, e: &Expr) -> Option<Expr> {
    let (a, b) = cx.arith().factors(e)?;
    let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Var(v) if cx.lf.modified.contains(&v.name));
    let uniform = |e: &Expr| cx.class(e).is_uniform_invariant();
    if is_var(a) && uniform(b) {
        Some(b.clone())
    } else if is_var(b) && uniform(a) {
        Some(a.clone())
    } else if uniform(b) {
        Some(cx.arith().mul(num, counter_stride(cx, num, a)?, b.clone()))
    } else if uniform(a) {
        Some(cx.arith().mul(num, a.clone(), counter_stride(cx, num, b)?))
    } else {
        None
    }
}

/// `has ==> (off - rest) mod step == thread`; and, when some thread terms are *wide* (a
/// thread id times a uniform variable, `local_id_y * N` of a row-major `A[ly * N + i]`, whose
/// value passes the step), the same with those terms moved to the left: the residue of the
/// offset within its row (quasirandomGenerator's `d_Output[ly * N + pos]` with a grid-stride
/// `pos`). Houdini keeps whichever holds.
fn residue(
    cx: &mut LoopCx,
    rule: &'static str,
    (num, off, has): (Num, Expr, Expr),
    rest: &[Term],
    thread: &[Term],
    step: &Expr,
) {
    let ar = cx.arith();
    let lhs = ar.rem(num, ar.minus_terms(num, off.clone(), rest), step.clone());
    cx.push(rule, Expr::implies(has.clone(), Expr::eq(lhs, ar.sum(num, thread))));
    let wide = |t: &Term| {
        cx.arith().factors(&t.expr).is_some_and(|(a, b)| {
            let uniform_var = |e: &Expr| cx.class(e).is_uniform_invariant() && cx.arith().lit_value(e).is_none();
            uniform_var(a) || uniform_var(b)
        })
    };
    let (wide, narrow): (Vec<Term>, Vec<Term>) = thread.iter().cloned().partition(|t| wide(t));
    if wide.is_empty() {
        return;
    }
    let left: Vec<Term> = rest.iter().chain(&wide).cloned().collect();
    let lhs = ar.rem(num, ar.minus_terms(num, off, &left), step.clone());
    cx.push(rule, Expr::implies(has, Expr::eq(lhs, ar.sum(num, &narrow))));
}

fn contiguous(cx: &mut LoopCx, acc: &LoopAccess, num: Num, s: &Split) {
    let thread: Vec<Term> = s.lid.iter().chain(&s.group).cloned().collect();
    for (k, t) in thread.iter().enumerate() {
        if t.neg {
            continue;
        }
        let Some((a, b)) = cx.arith().factors(&t.expr) else {
            continue;
        };
        let (ca, cb) = (cx.class(a), cx.class(b));
        let (x_class, size) = if ca.is_thread_invariant() && cb.is_uniform_invariant() {
            (ca, b.clone())
        } else if cb.is_thread_invariant() && ca.is_uniform_invariant() {
            (cb, a.clone())
        } else {
            continue;
        };
        let others = thread.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, t)| t);
        let rest: Vec<Term> = s.uniform.iter().chain(others.clone()).cloned().collect();
        let rule = if x_class.lid { CONTIGUOUS } else { CONTIGUOUS_GROUP };
        contiguous_bounds(cx, acc, num, t, &size, &rest, rule);
        // A group's block with the local ids inside it (`A[gid * C + c + lid]`, the block of
        // each group holding its threads' offsets): `gid * C <= off - U < gid * C + C`, the
        // linear form of GPUVerify's `accessBreak` candidate `group_id_x == off / C`. The
        // form above subtracts `lid` and cannot separate two groups' offsets.
        if !x_class.lid && !s.lid.is_empty() {
            // Only when the other thread terms are local ids alone.
            if others.clone().all(|o| !cx.class(&o.expr).group) {
                contiguous_bounds(cx, acc, num, t, &size, &s.uniform, BLOCK);
            }
        }
    }
}

/// `has ==> t <= off - rest` and `has ==> off - rest < t + size` for one access.
fn contiguous_bounds(
    cx: &mut LoopCx,
    acc: &LoopAccess,
    num: Num,
    t: &Term,
    size: &Expr,
    rest: &[Term],
    rule: &'static str,
) {
    let ar = cx.arith();
    let rel_off = ar.minus_terms(num, cx.offset(&acc.array, acc.write), rest);
    let lo = ar.cmp(num, Rel::Le, false, t.expr.clone(), rel_off.clone());
    let hi = ar.cmp(num, Rel::Lt, false, rel_off, ar.add(num, t.expr.clone(), size.clone()));
    let has = cx.logged(&acc.array, acc.write);
    cx.push(rule, Expr::implies(has.clone(), lo));
    cx.push(rule, Expr::implies(has, hi));
}
