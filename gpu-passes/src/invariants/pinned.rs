//! Counters pinned to their start value at an access: the single-iteration loops of real
//! kernels.
//!
//! CUDA's transpose samples tile a matrix with `for (i = 0; i < TILE_DIM; i += BLOCK_ROWS)`
//! and run with `TILE_DIM == BLOCK_ROWS`, so the body runs once, with `i == 0`, and the access
//! `odata[index + i * width]` is `odata[index]`. The access rules ([`super::access`]) read `i`
//! as loop-varying and propose only strided or range facts, which do not tell two threads'
//! offsets apart (a false race on `transposeNaive` and its siblings, where GPUVerify's own
//! candidates, generated on Bugle's IR after its loop analysis, verify). Here a variable is
//! *pinned* at an access when
//! - every value the loop (or the code before it) gives it is one literal `c0` or the variable
//!   plus a positive literal step `s` (`i := 0`, `i := i + 16`, read through the loop's
//!   temporaries), and
//! - a condition dominating the access bounds it by a literal, `i < b` (or `i <= b - 1`),
//!   with `c0 < b <= c0 + s` for every step: the first step already leaves the range.
//!
//! Then the access is also read with `c0` for the variable, and the access rules propose their
//! thread-id equations for that reading. Only candidates come of it: Houdini checks each (a
//! counter that wraps around into the range refutes them), so a wrong pin costs precision,
//! never soundness.

use super::arith::{Rel, View};
use super::cx::LoopCx;
use super::facts::LoopAccess;
use ivl::ast::*;
use num_bigint::BigInt;
use std::collections::HashMap;

/// The access with its pinned variables replaced by their start values; None when no variable
/// of its index is pinned.
pub fn pin(cx: &LoopCx, acc: &LoopAccess) -> Option<LoopAccess> {
    let mut map: HashMap<Name, Expr> = HashMap::new();
    for v in ivl::visit::free_vars(&acc.index) {
        if let Some(c0) = pinned_value(cx, acc, &v) {
            let num = cx.var_num(&v)?;
            map.insert(v, cx.arith().big_lit(num, &c0));
        }
    }
    if map.is_empty() {
        return None;
    }
    let index = ivl::visit::substitute(&acc.index, &map);
    Some(LoopAccess { index, ..acc.clone() })
}

/// The start value of `v` when it is pinned at `acc` (see the module doc).
fn pinned_value(cx: &LoopCx, acc: &LoopAccess, v: &Name) -> Option<BigInt> {
    if !cx.lf.modified.contains(v) {
        return None;
    }
    let (start, min_step) = start_and_step(cx, v)?;
    let bound = acc.conds.iter().find_map(|c| upper_bound(cx, c, v))?;
    (start < bound && bound <= start.clone() + min_step).then_some(start)
}

/// The one literal start value of `v` and its smallest positive literal step, when the loop's
/// assignments to `v` (and its entry value) are only those.
fn start_and_step(cx: &LoopCx, v: &Name) -> Option<(BigInt, BigInt)> {
    let ar = cx.arith();
    let mut start: Option<BigInt> = None;
    let mut step: Option<BigInt> = None;
    let mut note_start = |c: BigInt| match &start {
        Some(s) if *s != c => false,
        _ => {
            start = Some(c);
            true
        }
    };
    if let Some(e0) = cx.lf.init.get(v) {
        if !note_start(ar.lit_value(e0)?) {
            return None;
        }
    }
    for (x, rhs) in &cx.lf.assigns {
        if x != v {
            continue;
        }
        let rhs = cx.through_temporaries(rhs);
        if let Some(c) = ar.lit_value(&rhs) {
            if !note_start(c) {
                return None;
            }
            continue;
        }
        let s = increment(cx, &rhs, v)?;
        if step.as_ref().is_none_or(|m| s < *m) {
            step = Some(s);
        }
    }
    Some((start?, step?))
}

/// `s` when `e` is `v + s` (either order) with a positive literal `s`.
fn increment(cx: &LoopCx, e: &Expr, v: &Name) -> Option<BigInt> {
    let ar = cx.arith();
    let terms = ar.terms(e);
    let [a, b] = terms.as_slice() else { return None };
    let is_v = |t: &super::arith::Term| !t.neg && matches!(&t.expr.kind, ExprKind::Var(x) if x.name == *v);
    let lit = |t: &super::arith::Term| if t.neg { None } else { ar.lit_value(&t.expr) };
    let s = if is_v(a) {
        lit(b)?
    } else if is_v(b) {
        lit(a)?
    } else {
        return None;
    };
    (s > BigInt::from(0)).then_some(s)
}

/// `b` when condition `c` says `v < b` (or `v <= b - 1`, `b > v`) for a literal `b`.
fn upper_bound(cx: &LoopCx, c: &Expr, v: &Name) -> Option<BigInt> {
    let View::Cmp(rel, _, a, b) = cx.arith().view(c) else {
        return None;
    };
    let is_v = |e: &Expr| matches!(&e.kind, ExprKind::Var(x) if x.name == *v);
    let lit = |e: &Expr| cx.arith().lit_value(e);
    match rel {
        Rel::Lt if is_v(a) => lit(b),
        Rel::Le if is_v(a) => lit(b).map(|x| x + 1),
        Rel::Gt if is_v(b) => lit(a),
        Rel::Ge if is_v(b) => lit(a).map(|x| x + 1),
        _ => None,
    }
}
