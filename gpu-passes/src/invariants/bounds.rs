//! Rule family "bounds" (seed 001 §4.3, GPUVerify's loop-bound rules): a loop counter stays on
//! one side of its initial value, guard variables are non-negative, and a counter compared with
//! a bound in the guard does not pass the bound by more than the loop's last step.
//!
//! Candidates, for a counter `x` (a variable the loop updates by `x := x ± c`, `x * 2`,
//! `x div 2`) with entry value `e0`: `x >= e0` and `x <= e0` (integers), or the unsigned and the
//! signed `e0 <= x`, `x <= e0` (bit-vectors: which one holds depends on the kernel's reading of
//! its bits). For a variable `v` of a guard: `v >= 0` (bit-vectors: signed). For a guard
//! `x < e` (`x > e`): `x <= e` (`x >= e`); for `x <= e`: `x <= e + 1`.

use super::arith::{Num, Rel, View};
use super::cx::LoopCx;
use ivl::ast::*;

pub const COUNTER_BOUND: &str = "counter-bound";
pub const GUARD_NONNEG: &str = "guard-nonneg";
pub const GUARD_BOUND: &str = "guard-bound";

pub fn generate(cx: &mut LoopCx) {
    for (x, num, _) in cx.counters() {
        let Some(e0) = cx.lf.init.get(&x).cloned() else {
            continue;
        };
        if cx.num(&e0) != Some(num) {
            continue;
        }
        let v = cx.var(&x);
        let signs: &[bool] = if num == Num::Int { &[true] } else { &[false, true] };
        for &signed in signs {
            let ge = cx.arith().cmp(num, Rel::Le, signed, e0.clone(), v.clone());
            let le = cx.arith().cmp(num, Rel::Le, signed, v.clone(), e0.clone());
            cx.push(COUNTER_BOUND, ge);
            cx.push(COUNTER_BOUND, le);
        }
    }
    for x in cx.guard_vars() {
        let Some(num) = cx.var_num(&x) else { continue };
        let zero = cx.arith().lit(num, 0);
        let e = cx.arith().cmp(num, Rel::Le, true, zero, cx.var(&x));
        cx.push(GUARD_NONNEG, e);
    }
    for g in cx.lf.guards.clone() {
        guard_bound(cx, &g);
    }
}

fn guard_bound(cx: &mut LoopCx, g: &Expr) {
    let View::Cmp(rel, signed, a, b) = cx.arith().view(g) else {
        return;
    };
    let is_counter = |e: &Expr| matches!(&e.kind, ExprKind::Var(x) if cx.lf.modified.contains(&x.name));
    // Normalise to `x REL bound` with `x` the counter.
    let (x, bound, rel) = if is_counter(a) && !is_counter(b) {
        (a.clone(), b.clone(), rel)
    } else if is_counter(b) && !is_counter(a) {
        let flipped = match rel {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            r => r,
        };
        (b.clone(), a.clone(), flipped)
    } else {
        return;
    };
    let Some(num) = cx.num(&x) else { return };
    let ar = cx.arith();
    let e = match rel {
        Rel::Lt => ar.cmp(num, Rel::Le, signed, x, bound),
        Rel::Gt => ar.cmp(num, Rel::Le, signed, bound, x),
        Rel::Le if num == Num::Int => {
            let one = ar.lit(num, 1);
            ar.cmp(num, Rel::Le, signed, x, ar.add(num, bound, one))
        }
        Rel::Ge if num == Num::Int => {
            let one = ar.lit(num, 1);
            ar.cmp(num, Rel::Le, signed, ar.sub(num, bound, one), x)
        }
        _ => return,
    };
    cx.push(GUARD_BOUND, e);
}
