//! Rule family "uniformity" (seed 001 §4.3, GPUVerify's rules tied to the predicated two-thread
//! program): in a loop that contains a barrier, barrier divergence freedom requires both
//! modelled threads to run the same iterations, so the loop counters, the loop guard and the
//! loop predicate are the same in both threads. Loops without a barrier often have a uniform
//! trip count too, and knowing that both threads leave the loop together keeps the logged
//! accesses of the first thread described by the loop's invariants until the second leaves.
//!
//! Candidates, in every loop: `__uniform(x)` for every counter and guard variable
//! `x`; `__uniform(x - e0)` when the entry value `e0` depends on the thread (`i := lid;
//! i := i + SZ` keeps `i - lid` uniform); `__uniform(g)` for the guard `g`;
//! `__uniform(__enabled())`. In every loop, "equal values under equal predicates": while both
//! threads are still iterating, a counter with a uniform entry value and update is equal in
//! both (`__enabled() && __other(__enabled()) ==> __uniform(x)`).

use super::arith::Num;
use super::cx::LoopCx;

pub const UNIFORM_COUNTER: &str = "uniform-counter";
pub const UNIFORM_DELTA: &str = "uniform-counter-delta";
pub const UNIFORM_GUARD: &str = "uniform-guard";
pub const UNIFORM_ENABLED: &str = "uniform-enabled";
pub const EQUAL_WHEN_ENABLED: &str = "equal-when-enabled";

pub fn generate(cx: &mut LoopCx) {
    let counters = cx.counters();
    {
        let mut vars: Vec<(ivl::ast::Name, Option<Num>)> =
            counters.iter().map(|(x, n, _)| (x.clone(), Some(*n))).collect();
        for v in cx.guard_vars() {
            if !vars.iter().any(|(x, _)| *x == v) {
                let n = cx.var_num(&v);
                vars.push((v, n));
            }
        }
        for (x, num) in vars {
            let u = cx.uniform(cx.var(&x));
            cx.push(UNIFORM_COUNTER, u);
            let (Some(num), Some(e0)) = (num, cx.lf.init.get(&x).cloned()) else {
                continue;
            };
            let c = cx.class(&e0);
            if (c.lid || c.group) && cx.num(&e0) == Some(num) {
                let d = cx.arith().sub(num, cx.var(&x), e0);
                let u = cx.uniform(d);
                cx.push(UNIFORM_DELTA, u);
            }
        }
        for g in cx.lf.guards.clone() {
            let u = cx.uniform(g);
            cx.push(UNIFORM_GUARD, u);
        }
        let u = cx.uniform(cx.enabled());
        cx.push(UNIFORM_ENABLED, u);
    }
    for (x, _, _) in counters {
        let uniform_start = cx.lf.init.get(&x).is_some_and(|e0| cx.class(e0).is_uniform_invariant());
        if !uniform_start {
            continue;
        }
        let both = ivl::ast::Expr::and(cx.enabled(), cx.builtin("__other", vec![cx.enabled()]));
        let e = ivl::ast::Expr::implies(both, cx.uniform(cx.var(&x)));
        cx.push(EQUAL_WHEN_ENABLED, e);
    }
}
