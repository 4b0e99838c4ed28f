//! The specification built-ins of docs/kbpl.md §5.2 in the two-thread program: a contract, invariant
//! or assertion `e` of the kernel holds *for each thread*, so it becomes one expression per
//! modelled thread, `e` read in thread `t`:
//!
//! | built-in           | in thread `t`                                                    |
//! |--------------------|------------------------------------------------------------------|
//! | private `x`        | `x$t` (uniform values have one copy)                              |
//! | `__other(e)`       | `e` read in the other thread                                      |
//! | `__uniform(e)`     | `e` read in thread 1 `==` `e` read in thread 2                     |
//! | `__enabled()`      | the thread is at this block (`v_active$t == B`; substituted by the caller) |
//! | `__read(A)` …      | thread 1's access log of `A` (seed 001 §4.2: only thread 1 logs)   |
//!
//! Thread 2 has no log, so an expression that mentions `__read`, `__write`, `__read_offset` or
//! `__write_offset` is only read in thread 1. This is sound for every use: thread 1 is an
//! arbitrary thread, and a clause is left out of what is assumed exactly when it is left out of
//! what is checked (GPUVerify states its access-log invariants for thread 1 only, too).

use ivl::ast::*;
use ivl::visit::substitute;
use std::collections::HashMap;

pub(crate) const LOG_BUILTINS: [&str; 4] = ["__read", "__write", "__read_offset", "__write_offset"];

/// What reading a specification in a thread needs.
pub(crate) trait SpecEnv {
    /// `e` (without built-ins) read in thread `t` (0 or 1): private names renamed to `t`'s copy.
    fn phi(&self, e: &Expr, t: usize) -> Expr;
    /// `__read(A)` and friends for thread 1 (the logging thread).
    fn log_builtin(&self, builtin: &str, array: &Name) -> Option<Expr>;
}

pub(crate) fn is_builtin(name: &str) -> bool {
    LOG_BUILTINS.contains(&name) || matches!(name, "__other" | "__uniform" | "__enabled")
}

/// Whether an expression uses a specification built-in.
pub(crate) fn mentions_builtin(e: &Expr) -> bool {
    struct Find(bool);
    impl ivl::visit::Visit for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call(f, _) = &e.kind {
                if is_builtin(f.as_str()) {
                    self.0 = true;
                }
            }
            ivl::visit::walk_expr(self, e)
        }
    }
    let mut f = Find(false);
    ivl::visit::Visit::visit_expr(&mut f, e);
    f.0
}

/// `e` read in thread `t`, or `None` when it cannot be (log built-ins in thread 2).
pub(crate) fn for_thread(env: &dyn SpecEnv, e: &Expr, t: usize) -> Option<Expr> {
    if !mentions_builtin(e) {
        return Some(env.phi(e, t));
    }
    let mut holes = Vec::new();
    let replaced = replace(env, e, t, &mut holes)?;
    let read = env.phi(&replaced, t);
    let map: HashMap<Name, Expr> = holes.into_iter().collect();
    Some(substitute(&read, &map))
}

fn hole(holes: &mut Vec<(Name, Expr)>, value: Expr, span: Span) -> Expr {
    let name = Name::from(format!("$kivl_spec_hole{}", holes.len()));
    holes.push((name.clone(), value));
    Expr::var(name, span)
}

/// `e` with every built-in replaced: log built-ins by thread 1's logs, `__other` and
/// `__uniform` by placeholders bound (in `holes`) to their already-read values.
fn replace(env: &dyn SpecEnv, e: &Expr, t: usize, holes: &mut Vec<(Name, Expr)>) -> Option<Expr> {
    let sp = e.span;
    let mut go = |x: &Expr| replace(env, x, t, holes);
    let kind = match &e.kind {
        ExprKind::Call(f, args) if is_builtin(f.as_str()) => {
            let name = f.as_str();
            return match name {
                "__enabled" => Some(Expr::new(ExprKind::BoolLit(true), sp)),
                "__other" => {
                    let v = for_thread(env, &args[0], 1 - t)?;
                    Some(hole(holes, v, sp))
                }
                "__uniform" => {
                    let a = for_thread(env, &args[0], 0)?;
                    let b = for_thread(env, &args[0], 1)?;
                    Some(hole(holes, Expr::new(ExprKind::Binary(BinOp::Eq, Box::new(a), Box::new(b)), sp), sp))
                }
                _ => {
                    if t != 0 {
                        return None;
                    }
                    let ExprKind::Var(a) = &args[0].kind else { return None };
                    let mut v = env.log_builtin(name, &a.name)?;
                    v.span = sp;
                    Some(v)
                }
            };
        }
        ExprKind::BoolLit(_)
        | ExprKind::IntLit(_)
        | ExprKind::RealLit(_)
        | ExprKind::BvLit { .. }
        | ExprKind::Var(_) => e.kind.clone(),
        ExprKind::Old(a) => ExprKind::Old(Box::new(go(a)?)),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(go(a)?)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, Box::new(go(a)?), Box::new(go(b)?)),
        ExprKind::Call(f, args) => ExprKind::Call(f.clone(), args.iter().map(&mut go).collect::<Option<_>>()?),
        ExprKind::Select(m, idx) => ExprKind::Select(Box::new(go(m)?), idx.iter().map(&mut go).collect::<Option<_>>()?),
        ExprKind::Store(m, idx, v) => {
            ExprKind::Store(Box::new(go(m)?), idx.iter().map(&mut go).collect::<Option<_>>()?, Box::new(go(v)?))
        }
        ExprKind::Extract(a, hi, lo) => ExprKind::Extract(Box::new(go(a)?), *hi, *lo),
        ExprKind::IfThenElse(c, a, b) => ExprKind::IfThenElse(Box::new(go(c)?), Box::new(go(a)?), Box::new(go(b)?)),
        ExprKind::Quant(q) => {
            let mut q = (**q).clone();
            q.body = go(&q.body)?;
            ExprKind::Quant(Box::new(q))
        }
        ExprKind::Coerce(a, ty) => ExprKind::Coerce(Box::new(go(a)?), ty.clone()),
        ExprKind::Let(l) => {
            let values = l.values.iter().map(&mut go).collect::<Option<_>>()?;
            ExprKind::Let(Box::new(ivl::ast::LetExpr { vars: l.vars.clone(), values, body: go(&l.body)? }))
        }
        // Eliminated by the front end (ivl::code_exprs).
        ExprKind::Code(_) => return None,
    };
    Some(Expr::new(kind, sp))
}

/// Replaces `__enabled()` by `enabled` (the predicated block's `v_active == B`).
pub(crate) fn substitute_enabled<T: ivl::visit::Node + ?Sized>(node: &mut T, enabled: &Expr) {
    struct Sub<'a>(&'a Expr);
    impl ivl::visit::VisitMut for Sub<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            if matches!(&e.kind, ExprKind::Call(f, args) if f.as_str() == "__enabled" && args.is_empty()) {
                let span = e.span;
                *e = self.0.clone();
                e.span = span;
                return;
            }
            ivl::visit::walk_expr_mut(self, e)
        }
    }
    node.accept_mut(&mut Sub(enabled));
}

/// The shared arrays whose *values* a specification mentions (arguments of the access-log
/// built-ins do not count): they must be modelled, not abstracted to arbitrary reads.
pub(crate) fn value_mentions<T: ivl::visit::Node + ?Sized>(node: &T, out: &mut Vec<Name>) {
    struct Collect<'a> {
        bound: Vec<Name>,
        out: &'a mut Vec<Name>,
    }
    impl ivl::visit::Visit for Collect<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Call(f, _) if LOG_BUILTINS.contains(&f.as_str()) => {}
                // `__taken(A, i, v)` reads the thread's ghost set of `A`, not `A`.
                ExprKind::Call(f, args) if f.as_str() == super::atomics::TAKEN => {
                    args.iter().skip(1).for_each(|a| self.visit_expr(a))
                }
                ExprKind::Var(x) => {
                    if !self.bound.contains(&x.name) && !self.out.contains(&x.name) {
                        self.out.push(x.name.clone());
                    }
                }
                _ => ivl::visit::walk_expr(self, e),
            }
        }
        fn visit_quantifier(&mut self, q: &Quantifier) {
            let n = self.bound.len();
            self.bound.extend(q.vars.iter().map(|v| v.name.name.clone()));
            ivl::visit::walk_quantifier(self, q);
            self.bound.truncate(n);
        }
    }
    node.accept(&mut Collect { bound: vec![], out });
}
