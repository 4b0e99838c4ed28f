//! What the expressions of a loop depend on ([`Class`]: thread identities, parameters, loop
//! variables…) and how the loop changes each variable ([`Update`]), read through temporaries.
//!
//! Separate because the candidate rules ask these questions of loop facts already built, and
//! never the other way round.

use super::syntax::shared_reads;
use super::*;
use ivl::visit::{walk_expr, Visit};

impl ProgramFacts<'_> {
    /// Which kinds of values `e` depends on at the head of loop `lf` (locals that the loop does
    /// not modify are followed to their entry value).
    pub fn classify(&self, lf: &LoopFacts, e: &Expr) -> Class {
        self.classify_depth(lf, e, 0)
    }

    fn classify_depth(&self, lf: &LoopFacts, e: &Expr, depth: usize) -> Class {
        let mut c = Class::default();
        let mut reads = Vec::new();
        shared_reads(&self.env, e, &mut reads);
        if !reads.is_empty() || contains_old_or_quant(e) {
            c.other = true;
        }
        for v in free_vars(e) {
            c = c.join(self.classify_var(lf, &v, depth));
        }
        c
    }

    fn classify_var(&self, lf: &LoopFacts, v: &Name, depth: usize) -> Class {
        let mut c = Class::default();
        if let Some(attr) = self.identity(v) {
            return Class::of_identity(attr);
        }
        if lf.modified.contains(v) {
            c.varying = true;
            return c;
        }
        if lf.locals.contains_key(v) {
            if let Some(e) = lf.init.get(v) {
                if depth < 6 {
                    return self.classify_depth(lf, e, depth + 1);
                }
            }
            // A parameter: uniform in a kernel; in a callee, assumed so.
            if self.is_param(lf, v) {
                return c;
            }
            c.other = true;
            return c;
        }
        match self.env.global(v).map(|g| &g.kind) {
            Some(GlobalKind::Const { .. }) => c,
            Some(GlobalKind::Var { .. }) => {
                c.other = true;
                c
            }
            None => c,
        }
    }

    fn is_param(&self, lf: &LoopFacts, v: &Name) -> bool {
        self.env.procedure(&lf.proc).is_some_and(|p| p.ins.iter().any(|(n, _)| n == v))
    }

    /// How loop `lf` updates `x` (all its assignments must agree).
    pub fn update_of(&self, lf: &LoopFacts, x: &Name) -> Update {
        let mut kind: Option<Update> = None;
        for (y, rhs) in &lf.assigns {
            if y != x {
                continue;
            }
            let u = self.classify_update(lf, x, through_temporary(lf, x, rhs));
            match &kind {
                None => kind = Some(u),
                Some(k) if *k == u || strip_spans_eq(k, &u) => {}
                Some(_) => return Update::Other,
            }
        }
        // A variable modified otherwise (havoc, call) has no regular update.
        let assigned = lf.assigns.iter().filter(|(y, _)| y == x).count();
        if assigned == 0 {
            return Update::Other;
        }
        kind.unwrap_or(Update::Other)
    }

    fn classify_update(&self, lf: &LoopFacts, x: &Name, rhs: &Expr) -> Update {
        let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(v) if v.name == *x);
        let is_lit = |e: &Expr, n: i64| self.arith.lit_value(e).is_some_and(|v| v == n.into());
        match self.arith.view(rhs) {
            View::Arith(Op::Add, a, b) if is_x(a) && is_x(b) => return Update::Double,
            View::Arith(Op::Mul, a, b) if (is_x(a) && is_lit(b, 2)) || (is_x(b) && is_lit(a, 2)) => {
                return Update::Double
            }
            View::Arith(Op::Shl, a, b) if is_x(a) && is_lit(b, 1) => return Update::Double,
            View::Arith(Op::Div, a, b) if is_x(a) && is_lit(b, 2) => return Update::Half,
            View::Arith(Op::LShr, a, b) if is_x(a) && is_lit(b, 1) => return Update::Half,
            _ => {}
        }
        // `x + s1 - s2 + …` with exactly one `+x` and uniform, loop-invariant other terms.
        let terms = self.arith.terms(rhs);
        let (own, rest): (Vec<&Term>, Vec<&Term>) = terms.iter().partition(|t| is_x(&t.expr));
        let [t] = own.as_slice() else { return Update::Other };
        if t.neg || rest.is_empty() || !rest.iter().all(|t| self.classify(lf, &t.expr).is_uniform_invariant()) {
            return Update::Other;
        }
        let Some(num) = self.num_of(&lf.locals, rhs) else {
            return Update::Other;
        };
        let rest: Vec<Term> = rest.into_iter().cloned().collect();
        if rest.iter().all(|t| t.neg) {
            let pos: Vec<Term> = rest.iter().map(|t| Term { neg: false, expr: t.expr.clone() }).collect();
            return Update::Additive { step: self.arith.sum(num, &pos), down: true };
        }
        Update::Additive { step: self.arith.sum(num, &rest), down: false }
    }
}

/// `x := t` where the loop assigns the temporary `t` once, `t := e`: the update is read as
/// `x := e` (the front end's `$inc := i + s; … i := $inc;` on a loop's back edge). A wrong
/// reading only proposes candidates that Houdini then refutes.
fn through_temporary<'e>(lf: &'e LoopFacts, x: &Name, rhs: &'e Expr) -> &'e Expr {
    let ExprKind::Var(t) = &rhs.kind else { return rhs };
    if t.name == *x {
        return rhs;
    }
    let mut defs = lf.assigns.iter().filter(|(y, _)| *y == t.name);
    match (defs.next(), defs.next()) {
        (Some((_, e)), None) => e,
        _ => rhs,
    }
}

fn strip_spans_eq(a: &Update, b: &Update) -> bool {
    match (a, b) {
        (Update::Additive { step: s1, down: d1 }, Update::Additive { step: s2, down: d2 }) => {
            d1 == d2 && ivl::printer::print_expr(s1) == ivl::printer::print_expr(s2)
        }
        _ => a == b,
    }
}

/// Whether `e` mentions `old` or a quantifier.
fn contains_old_or_quant(e: &Expr) -> bool {
    struct F(bool);
    impl Visit for F {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(e.kind, ExprKind::Old(_) | ExprKind::Quant(_)) {
                self.0 = true;
            }
            walk_expr(self, e)
        }
    }
    let mut f = F(false);
    f.visit_expr(e);
    f.0
}
