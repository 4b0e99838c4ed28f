//! Rule family "thread ids as digits of the offset" (added for the corpus; GPUVerify's
//! `accessBreak` candidates rest on the same observation): a row-major index over a 2-D grid of
//! threads with a loop counter in the middle, fluidsGL's
//! `part[((gy * lb * bdy + ly * lb + p) * dx + gx * bdx + lx) * 2 + c]` (`p` counts `0 .. lb`,
//! the `* 2 + c` the two words of a `float2`), is a number in a mixed radix whose digits are
//! the thread ids. No rule of [`super::access`] fits it: the counter's term sits between the
//! thread terms, and the sum is under a product, so the offset is one loop-varying term.
//!
//! The index is multiplied out into monomials; for every monomial `k * id` with `id` a local or
//! group id of dimension `d` and `k` a product of uniform loop-invariant factors, the candidate
//! is `has ==> (off div k) mod N == id`, where `N` is the size of that id's range
//! (`group_size_d` for a local id, `num_groups_d` for a group id) and `off div k` is left out
//! when `k` is 1. The digit below a row that the loop's counter steps through is not always
//! reduced by `N` (diffuseProject's grid is 5 groups wide in a row of 512 elements): for every
//! monomial `K * i` with a loop counter `i`, also `has ==> (off mod K) div k == id`.
//!
//! GPUVerify's own forms subtract the other terms divided term by term; the digit forms need
//! no subtraction and hold exactly when the lower terms stay below `k` and the higher ones are
//! multiples of `k * N` (of `K`) — which Houdini checks, as it checks every candidate: a wrong
//! guess is dropped, never trusted. Surviving digits tell two threads'
//! offsets apart whenever the threads differ in one of those ids.

use super::arith::{Num, Op, View};
use super::cx::LoopCx;
use ivl::ast::*;

pub const DIGIT: &str = "access-digit";

/// An index with more monomials than this is not multiplied out.
const MAX_MONOMIALS: usize = 32;

/// A product of factors with a sign.
#[derive(Clone)]
struct Monomial {
    neg: bool,
    factors: Vec<Expr>,
}

pub fn generate(cx: &mut LoopCx) {
    for acc in cx.accesses() {
        // Offsets the loop does not move are the `access-offset` rule's.
        if acc.levels != 1 || !cx.class(&acc.index).varying {
            continue;
        }
        let Some(num) = cx.num(&acc.index) else { continue };
        let Some(monomials) = expand(cx, num, &acc.index) else { continue };
        let rows: Vec<Expr> =
            monomials.iter().filter(|m| !m.neg).filter_map(|m| counter_coefficient(cx, num, m)).collect();
        for m in monomials.iter().filter(|m| !m.neg) {
            let Some((id, size, k)) = digit(cx, num, m) else { continue };
            let ar = cx.arith();
            let off = cx.offset(&acc.array, acc.write);
            let below = |e: Expr| match &k {
                Some(k) => ar.op(num, Op::Div, e, k.clone()),
                None => e,
            };
            let has = cx.logged(&acc.array, acc.write);
            let digit = Expr::eq(ar.rem(num, below(off.clone()), size), id.clone());
            cx.push(DIGIT, Expr::implies(has.clone(), digit));
            // `cx.push` writes the parameters a precondition fixes as literals
            // ([`super::params`]): a literal divisor keeps the queries cheap.
            for row in &rows {
                let within = Expr::eq(below(ar.rem(num, off.clone(), row.clone())), id.clone());
                cx.push(DIGIT, Expr::implies(has.clone(), within));
            }
        }
    }
}

/// `e` as a sum of monomials (sums under products multiplied out; `x << c` read as `x * 2^c`);
/// `None` when there would be more than [`MAX_MONOMIALS`].
fn expand(cx: &LoopCx, num: Num, e: &Expr) -> Option<Vec<Monomial>> {
    let ar = cx.arith();
    let out = match ar.view(e) {
        View::Arith(op @ (Op::Add | Op::Sub), a, b) => {
            let mut out = expand(cx, num, a)?;
            out.extend(expand(cx, num, b)?.into_iter().map(|m| Monomial { neg: m.neg ^ (op == Op::Sub), ..m }));
            out
        }
        View::Arith(Op::Mul, a, b) => product(&expand(cx, num, a)?, &expand(cx, num, b)?),
        View::Arith(Op::Shl, a, b) => {
            let c = ar.lit_value(b).and_then(|v| u32::try_from(v).ok()).filter(|c| *c < 31)?;
            let scale = Monomial { neg: false, factors: vec![ar.lit(num, 1i64 << c)] };
            product(&expand(cx, num, a)?, &[scale])
        }
        _ => vec![Monomial { neg: false, factors: vec![e.clone()] }],
    };
    (out.len() <= MAX_MONOMIALS).then_some(out)
}

fn product(xs: &[Monomial], ys: &[Monomial]) -> Vec<Monomial> {
    let mut out = Vec::with_capacity(xs.len() * ys.len());
    for x in xs {
        for y in ys {
            let factors = x.factors.iter().chain(&y.factors).cloned().collect();
            out.push(Monomial { neg: x.neg ^ y.neg, factors });
        }
    }
    out
}

/// A monomial `K * i` with `i` a variable the loop modifies and `K` a product of uniform
/// loop-invariant factors other than 1: `K`, the length of the row the counter steps through.
fn counter_coefficient(cx: &LoopCx, num: Num, m: &Monomial) -> Option<Expr> {
    let (counters, rest): (Vec<&Expr>, Vec<&Expr>) = m.factors.iter().partition(|f| cx.class(f).varying);
    let [ExprKind::Var(_)] = counters.iter().map(|f| &f.kind).collect::<Vec<_>>()[..] else {
        return None;
    };
    if rest.is_empty() || !rest.iter().all(|f| cx.class(f).is_uniform_invariant()) {
        return None;
    }
    let ar = cx.arith();
    rest.into_iter().cloned().reduce(|a, b| ar.mul(num, a, b))
}

/// A monomial `k * id`: the id, the size of its range, and `k` (`None` for 1). Exactly one
/// factor is a local or group id; the others are uniform and loop-invariant.
fn digit(cx: &LoopCx, num: Num, m: &Monomial) -> Option<(Expr, Expr, Option<Expr>)> {
    let mut id: Option<(Expr, String)> = None;
    let mut rest: Vec<Expr> = Vec::new();
    for f in &m.factors {
        let attr = match &f.kind {
            ExprKind::Var(v) => {
                cx.facts.identity(&v.name).filter(|a| a.starts_with("local_id_") || a.starts_with("group_id_"))
            }
            _ => None,
        };
        match attr {
            Some(_) if id.is_some() => return None,
            Some(a) => id = Some((f.clone(), size_attr(a))),
            None if cx.class(f).is_uniform_invariant() => rest.push(f.clone()),
            None => return None,
        }
    }
    let (id, size) = id?;
    let size = size_of(cx, num, &size)?;
    let ar = cx.arith();
    let k = rest.into_iter().reduce(|a, b| ar.mul(num, a, b));
    Some((id, size, k))
}

/// The size constant of attribute `attr` in the index's type: the constant itself, or its
/// fixed value (a kernel that declares its ids as bit-vectors but not its sizes gets the
/// prelude's integer size constants).
fn size_of(cx: &LoopCx, num: Num, attr: &str) -> Option<Expr> {
    let name = cx.facts.id_names.get(attr)?;
    let var = cx.var(name);
    if cx.num(&var) == Some(num) {
        return Some(var);
    }
    let value = cx.facts.size_literals().get(name).and_then(|e| cx.arith().lit_value(e))?;
    Some(cx.arith().big_lit(num, &value))
}

/// The size attribute of an id's range: `local_id_y` → `group_size_y`, `group_id_y` →
/// `num_groups_y`.
fn size_attr(id_attr: &str) -> String {
    match id_attr.strip_prefix("local_id_") {
        Some(d) => format!("group_size_{d}"),
        None => format!("num_groups_{}", id_attr.trim_start_matches("group_id_")),
    }
}
