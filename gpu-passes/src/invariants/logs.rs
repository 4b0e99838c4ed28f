//! Rule family "no access logged at the head of a barrier loop" (seed 001 §4.3, GPUVerify's
//! `_READ_HAS_OCCURRED`/`_WRITE_HAS_OCCURRED` candidates): a loop whose body contains a barrier
//! is usually entered right after a barrier and re-entered right after one, so no access is
//! logged at its head.
//!
//! Candidates, in loops containing a barrier, for every shared array `A` the kernel writes:
//! `!__read(A)` and `!__write(A)` (separately, so that one can survive without the other).

use super::cx::LoopCx;
use ivl::ast::*;

pub const NO_ACCESS: &str = "no-access-at-barrier-loop";

pub fn generate(cx: &mut LoopCx) {
    if !cx.lf.has_barrier {
        return;
    }
    for a in cx.written.clone() {
        for write in [false, true] {
            let e = Expr::not(cx.logged(&a, write));
            cx.push(NO_ACCESS, e);
        }
    }
}
