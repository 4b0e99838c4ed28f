//! Rule family "zero or a power of two" (seed 001 §4.3): tree reductions double or halve their
//! stride, and race freedom needs the stride to be a power of two in a prefix-closed range.
//!
//! For a variable `x` the loop doubles (`x * 2`, `x + x`, `x << 1`) or halves (`x div 2`,
//! `x >> 1`): bit-vectors get `x & (x - 1) == 0` and `x != 0`; integers get `x > 0` and, when
//! the group size is known, the bounded disjunctions `x == 0 || x == 1 || x == 2 || … || x == 2D`
//! and `x == 1 || … || x == 2D`. Both get the prefix-closed bounds `x < 1`, `x < 2`, `x < 4`, …,
//! `x < 2D`, where `D` is the smallest power of two not below the group size (or, for a
//! halving counter, its entry value when that is a larger literal).

use super::arith::{ceil_log2, pow2, Num, Op, Rel};
use super::cx::LoopCx;
use super::facts::Update;
use ivl::ast::*;

pub const POW2: &str = "pow2";
pub const POW2_NONZERO: &str = "pow2-nonzero";
pub const POW2_BOUND: &str = "pow2-bound";

pub fn generate(cx: &mut LoopCx) {
    for (x, num, u) in cx.counters() {
        if !matches!(u, Update::Double | Update::Half) {
            continue;
        }
        let v = cx.var(&x);
        let ar = cx.arith();
        match num {
            Num::Bv(_) => {
                let one = ar.lit(num, 1);
                let zero = ar.lit(num, 0);
                let and = ar.op(num, Op::BitAnd, v.clone(), ar.sub(num, v.clone(), one));
                cx.push(POW2, Expr::eq(and, zero.clone()));
                cx.push(POW2_NONZERO, Expr::binary(BinOp::Neq, v.clone(), zero));
            }
            Num::Int => {
                let zero = ar.lit(num, 0);
                cx.push(POW2_NONZERO, Expr::binary(BinOp::Gt, v.clone(), zero));
            }
        }
        let Some(top) = bound_exponent(cx, &x, u == Update::Half) else {
            continue;
        };
        let ar = cx.arith();
        if num == Num::Int {
            let eq = |k: u32| Expr::eq(v.clone(), ar.lit(num, pow2(k)));
            let nonzero = (1..=top).fold(eq(0), |acc, k| Expr::or(acc, eq(k)));
            let zero = Expr::eq(v.clone(), ar.lit(num, 0));
            let with_zero = (0..=top).fold(zero, |acc, k| Expr::or(acc, eq(k)));
            cx.push(POW2, with_zero);
            cx.push(POW2, nonzero);
        }
        for k in 0..=top {
            if matches!(num, Num::Bv(w) if k + 1 >= w) {
                break;
            }
            let ar = cx.arith();
            let e = ar.cmp(num, Rel::Lt, false, v.clone(), ar.lit(num, pow2(k)));
            cx.push(POW2_BOUND, e);
        }
    }
}

/// `log2(2D)`: the exponent of the largest bound of the family.
fn bound_exponent(cx: &LoopCx, x: &Name, halving: bool) -> Option<u32> {
    let sz = cx.facts.sizes.local.map(|l| l.iter().copied().max().unwrap_or(1).max(l.iter().product()));
    // A halving counter never exceeds its entry value.
    let init =
        cx.lf.init.get(x).filter(|_| halving).and_then(|e| cx.arith().lit_value(e)).and_then(|v| u64::try_from(v).ok());
    let d = match (sz, init) {
        (Some(a), Some(b)) => a.max(b),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => return None,
    };
    Some((ceil_log2(d.max(1)) + 1).min(40))
}
