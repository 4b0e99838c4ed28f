//! Rule family "enabledness" (seed 001 §4.3, GPUVerify's predicate rules): in the predicated
//! program a thread is enabled at a loop head when it entered the loop and the guard held so
//! far, so `__enabled()` is related to the guard and to the conditions around the loop.
//!
//! Candidates: `g ==> __enabled()` for the loop guard `g` (a thread whose guard holds has not
//! left the loop), and `__enabled() ==> c` for every condition `c` that encloses the loop (an
//! `assume` of a block that dominates the loop header). The converse for the guard,
//! `__enabled() ==> g`, is not proposed: kivl's two-thread program evaluates the guard after
//! the head, so a thread about to leave is still enabled there (on the corpus it never held).

use super::cx::LoopCx;
use ivl::ast::*;

pub const GUARD_ENABLED: &str = "guard-implies-enabled";
pub const ENABLED_OUTER: &str = "enabled-implies-condition";

pub fn generate(cx: &mut LoopCx) {
    for g in cx.lf.guards.clone() {
        if cx.class(&g).other {
            continue;
        }
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
