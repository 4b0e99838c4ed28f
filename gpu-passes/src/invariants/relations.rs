//! Rule family "relations between counters" (added for the corpus: `loop_inv.kbpl` needs
//! `32 * acc == i - lid`, which none of seed 001's rules states): two counters that the loop
//! advances by constant steps `a` and `b` stay in proportion to how far they moved,
//! `(x - x0) * b == (y - y0) * a` (written without the factors that are `1`).

use super::arith::Num;
use super::cx::LoopCx;
use super::facts::Update;
use ivl::ast::*;
use num_bigint::BigInt;

pub const LINEAR: &str = "linear-counters";

pub fn generate(cx: &mut LoopCx) {
    let steps: Vec<(Name, Num, BigInt, Expr)> = cx
        .counters()
        .into_iter()
        .filter_map(|(x, num, u)| {
            let Update::Additive { step, down } = u else {
                return None;
            };
            let v = cx.arith().lit_value(&step)?;
            let e0 = cx.lf.init.get(&x)?.clone();
            (cx.num(&e0) == Some(num)).then_some((x, num, if down { -v } else { v }, e0))
        })
        .collect();
    for (i, (x, nx, a, x0)) in steps.iter().enumerate() {
        for (y, ny, b, y0) in &steps[i + 1..] {
            if nx != ny {
                continue;
            }
            let num = *nx;
            let ar = cx.arith();
            let dx = ar.mul(num, ar.sub(num, cx.var(x), x0.clone()), ar.big_lit(num, b));
            let dy = ar.mul(num, ar.sub(num, cx.var(y), y0.clone()), ar.big_lit(num, a));
            cx.push(LINEAR, Expr::eq(dx, dy));
        }
    }
}
