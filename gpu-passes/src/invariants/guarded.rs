//! Rule family "accesses only under their conditions" (seed 001 §4.3, a GPUVerify access rule):
//! an access inside `if (c)` is logged only when `c` held, and when the loop does not change
//! `c`, it still holds at the loop head whenever the access is logged.
//!
//! Candidates: `__write(A) ==> c` (`__read(A) ==> c`) for every condition `c` dominating a write
//! (read) of `A` inside the loop, when `c` reads no shared memory and the loop modifies none of
//! its variables.

use super::cx::LoopCx;
use ivl::ast::*;

pub const GUARDED: &str = "access-guarded";

pub fn generate(cx: &mut LoopCx) {
    for acc in cx.accesses() {
        for c in &acc.conds {
            let class = cx.class(c);
            if class.varying || class.other {
                continue;
            }
            let e = Expr::implies(cx.logged(&acc.array, acc.write), c.clone());
            cx.push(GUARDED, e);
        }
    }
}
