//! Rule family "enabledness" (seed 001 §4.3, GPUVerify's predicate rules): in the predicated
//! program a thread is enabled at a loop head exactly when it entered the loop and the guard
//! held so far, so `__enabled()` is related to the guard and to the conditions around the loop.
//!
//! Candidates: `__enabled() ==> g` and `g ==> __enabled()` for the loop guard `g`, and
//! `__enabled() ==> c` for every condition `c` that encloses the loop (an `assume` of a block
//! that dominates the loop header).

use super::cx::LoopCx;
use ivl::ast::*;

pub const ENABLED_GUARD: &str = "enabled-implies-guard";
pub const GUARD_ENABLED: &str = "guard-implies-enabled";
pub const ENABLED_OUTER: &str = "enabled-implies-condition";

pub fn generate(cx: &mut LoopCx) {
    for g in cx.lf.guards.clone() {
        if cx.class(&g).other {
            continue;
        }
        cx.push(ENABLED_GUARD, Expr::implies(cx.enabled(), g.clone()));
        cx.push(GUARD_ENABLED, Expr::implies(g, cx.enabled()));
    }
    for c in cx.lf.outer_conds.clone() {
        let class = cx.class(&c);
        if class.varying || class.other {
            continue;
        }
        cx.push(ENABLED_OUTER, Expr::implies(cx.enabled(), c));
    }
}
