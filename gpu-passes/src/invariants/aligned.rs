//! Rule family "aligned byte offsets" (added for the corpus): the front end walks a C pointer
//! as a byte offset and checks, at each load and store through it, that the offset is a
//! multiple of the element size (docs/kbpl.md's "possible misaligned access"). A pointer that
//! a loop advances, MC_SingleAsianOptionP's
//! `for (t = 0; t < n; t++, path += numSims) avg += *path;` (byte offset `i * 4`, step
//! `numSims * 4`), keeps its alignment only by induction, so the check needs a loop invariant.
//!
//! Candidate, for a counter `x` the loop advances by `x := x ± s`, with entry value `e0`: when
//! both `e0` and `s` are syntactically multiples of `2^k` (`k >= 1`: a literal, a product with
//! such a factor, a shift left by a literal, a sum of such), `x mod 2^k == 0` (bit-vectors:
//! `bvurem`; a power of two divides `2^w`, so wrap-around keeps the residue), and the same
//! under `__enabled() ==>`: in the predicated two-thread program a thread that has not entered
//! the loop keeps whatever value the counter had, and the check only matters where the thread
//! is enabled. Houdini checks them like every candidate.

use super::arith::{Op, View};
use super::cx::LoopCx;
use super::facts::Update;
use ivl::ast::*;
use num_traits::ToPrimitive;

pub const ALIGNED: &str = "aligned-counter";

/// Larger alignments are not proposed (32 bytes covers the vector types).
const MAX_LOG2: u32 = 5;

pub fn generate(cx: &mut LoopCx) {
    for (x, num, update) in cx.counters() {
        let Update::Additive { step, .. } = update else { continue };
        let Some(e0) = cx.lf.init.get(&x).map(|e| cx.through_temporaries(e)) else { continue };
        let k = two_adic(cx, &e0).min(two_adic(cx, &step)).min(MAX_LOG2);
        if k == 0 {
            continue;
        }
        let ar = cx.arith();
        let rem = ar.rem(num, cx.var(&x), ar.lit(num, 1i64 << k));
        let aligned = Expr::eq(rem, ar.lit(num, 0));
        cx.push(ALIGNED, aligned.clone());
        cx.push(ALIGNED, Expr::implies(cx.enabled(), aligned));
    }
}

/// The largest `k` (at most [`MAX_LOG2`]) for which `e` is syntactically a multiple of `2^k`.
fn two_adic(cx: &LoopCx, e: &Expr) -> u32 {
    let ar = cx.arith();
    match ar.view(e) {
        View::Lit(v) if v == 0.into() => MAX_LOG2,
        View::Lit(v) => v.trailing_zeros().map_or(0, |z| (z as u32).min(MAX_LOG2)),
        View::Arith(Op::Mul, a, b) => (two_adic(cx, a) + two_adic(cx, b)).min(MAX_LOG2),
        View::Arith(Op::Add | Op::Sub, a, b) => two_adic(cx, a).min(two_adic(cx, b)),
        View::Arith(Op::Shl, a, b) => {
            let shift = ar.lit_value(b).and_then(|s| s.to_u32()).unwrap_or(0);
            (two_adic(cx, a) + shift.min(MAX_LOG2)).min(MAX_LOG2)
        }
        _ => 0,
    }
}
