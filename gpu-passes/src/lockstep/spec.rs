//! The specification built-ins of docs/kbpl.md §5.2 in the lock-step program: an invariant or
//! assertion `e` of a kernel holds *for each thread*, so its lock-step form is `⋀_t e_t`, with
//! `e_t` the reading of `e` in thread `t`:
//!
//! | built-in              | in thread `t`                                                      |
//! |-----------------------|--------------------------------------------------------------------|
//! | private `x`           | `x$t` (`φ_t`, seed 000 Table 3)                                     |
//! | `__enabled()`         | `v_active$t == B`, `B` the block of the predicated `assert`         |
//! | `__uniform(e)`        | `e_1 == e_u` for every thread `u` (all threads agree)              |
//! | `__read(A)`, `__write(A)` | `t`'s access log of `A` since its last barrier is not empty    |
//! | `__read_offset(A)` …  | every location `l` that `t` read (wrote): `e_t` holds with `l` for the offset, i.e. `∀ l :: R_A$t[l] != 0 ==> e_t[l]` |
//! | `__other(e)`          | unsupported: it names *the* other thread of the two-thread reduction |
//!
//! Any reading is sound here, because a loop invariant or assertion is assumed only where the
//! same expression has been checked; the readings above make the usual invariants of the corpus
//! (`__write(A) ==> __write_offset(A) == local_id_x`, `!__read(A) && !__write(A)`,
//! `__uniform(__enabled())`) say what they mean for every thread.

use super::{Instrument, KernelCtx};
use crate::predication::{int_lit, typed};
use ivl::ast::*;
use ivl::diag::Diagnostic;
use ivl::visit::substitute;
use std::collections::HashMap;

/// An access log of one thread, for the log built-ins.
pub(crate) struct AccessLog {
    /// The site map (or scalar) of the thread: `0` where nothing was accessed.
    pub log: Expr,
    /// The value of `log` when nothing was accessed.
    pub empty: Expr,
    /// Index types of the location (empty for a scalar).
    pub index: Vec<Type>,
}

fn is_builtin(name: &str) -> bool {
    matches!(name, "__read" | "__write" | "__read_offset" | "__write_offset" | "__uniform" | "__enabled" | "__other")
}

/// Whether `e` uses a specification built-in.
pub(crate) fn mentions_builtin(e: &Expr) -> bool {
    struct Find(bool);
    impl ivl::visit::Visit for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(&e.kind, ExprKind::Call(f, _) if is_builtin(f.as_str())) {
                self.0 = true;
            }
            ivl::visit::walk_expr(self, e)
        }
    }
    let mut f = Find(false);
    ivl::visit::Visit::visit_expr(&mut f, e);
    f.0
}

/// What the translation of one expression for one thread collects.
struct Reading {
    /// Placeholders for already-translated sub-expressions (`__uniform`).
    holes: Vec<(Name, Expr)>,
    /// Bound offset variables: name, type, and "the thread accessed this location".
    bound: Vec<(Name, Type, Expr)>,
}

impl KernelCtx<'_> {
    /// `e` read in thread `t`; `enabled` is the generic-thread condition that stands for
    /// `__enabled()`.
    pub(crate) fn spec_for_thread(
        &mut self,
        ins: &dyn Instrument,
        e: &Expr,
        t: usize,
        enabled: &Expr,
    ) -> Result<Expr, Diagnostic> {
        if !mentions_builtin(e) {
            return Ok(self.th.phi(e, t));
        }
        let mut rd = Reading { holes: Vec::new(), bound: Vec::new() };
        let replaced = self.spec_replace(ins, e, t, enabled, &mut rd)?;
        let map: HashMap<Name, Expr> = rd.holes.into_iter().collect();
        let read = substitute(&self.th.phi(&replaced, t), &map);
        if rd.bound.is_empty() {
            return Ok(read);
        }
        let guard = rd.bound.iter().map(|(_, _, g)| g.clone()).reduce(Expr::and).expect("a bound variable");
        let q = Quantifier {
            kind: QuantKind::Forall,
            type_params: vec![],
            vars: rd.bound.iter().map(|(n, ty, _)| typed(n, ty.clone())).collect(),
            attrs: vec![],
            triggers: vec![],
            body: Expr::implies(guard, read),
        };
        Ok(Expr::new(ExprKind::Quant(Box::new(q)), e.span))
    }

    /// `⋀_t e_t`: the lock-step form of a per-thread specification.
    pub(crate) fn spec_all(&mut self, ins: &dyn Instrument, e: &Expr, enabled: &Expr) -> Result<Expr, Diagnostic> {
        if !mentions_builtin(e) {
            return Ok(self.th.all(e));
        }
        let mut parts = Vec::new();
        for t in 0..self.th.ts {
            parts.push(self.spec_for_thread(ins, e, t, enabled)?);
        }
        Ok(parts.into_iter().reduce(Expr::and).expect("at least one thread"))
    }

    fn spec_replace(
        &mut self,
        ins: &dyn Instrument,
        e: &Expr,
        t: usize,
        enabled: &Expr,
        rd: &mut Reading,
    ) -> Result<Expr, Diagnostic> {
        let sp = e.span;
        macro_rules! go {
            ($x:expr) => {
                Box::new(self.spec_replace(ins, $x, t, enabled, rd)?)
            };
        }
        let kind = match &e.kind {
            ExprKind::Call(f, args) if is_builtin(f.as_str()) => {
                return self.builtin(ins, f.as_str(), args, t, enabled, rd, sp);
            }
            ExprKind::BoolLit(_)
            | ExprKind::IntLit(_)
            | ExprKind::RealLit(_)
            | ExprKind::BvLit { .. }
            | ExprKind::Var(_) => e.kind.clone(),
            ExprKind::Old(a) => ExprKind::Old(go!(a)),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, go!(a)),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, go!(a), go!(b)),
            ExprKind::Call(f, args) => {
                let mut v = Vec::new();
                for a in args {
                    v.push(*go!(a));
                }
                ExprKind::Call(f.clone(), v)
            }
            ExprKind::Select(m, idx) => {
                let m = go!(m);
                let mut v = Vec::new();
                for a in idx {
                    v.push(*go!(a));
                }
                ExprKind::Select(m, v)
            }
            ExprKind::Store(m, idx, val) => {
                let m = go!(m);
                let mut v = Vec::new();
                for a in idx {
                    v.push(*go!(a));
                }
                ExprKind::Store(m, v, go!(val))
            }
            ExprKind::Extract(a, hi, lo) => ExprKind::Extract(go!(a), *hi, *lo),
            ExprKind::IfThenElse(c, a, b) => ExprKind::IfThenElse(go!(c), go!(a), go!(b)),
            ExprKind::Quant(q) => {
                let mut q = (**q).clone();
                q.body = *go!(&q.body);
                ExprKind::Quant(Box::new(q))
            }
            ExprKind::Coerce(a, ty) => ExprKind::Coerce(go!(a), ty.clone()),
            ExprKind::Let(_) => {
                return Err(Diagnostic::unsupported("let expressions are expanded before this stage", sp));
            }
            ExprKind::Code(_) => {
                return Err(Diagnostic::unsupported("code expressions are eliminated before this stage", sp));
            }
        };
        Ok(Expr::new(kind, sp))
    }

    #[allow(clippy::too_many_arguments)]
    fn builtin(
        &mut self,
        ins: &dyn Instrument,
        name: &str,
        args: &[Expr],
        t: usize,
        enabled: &Expr,
        rd: &mut Reading,
        sp: Span,
    ) -> Result<Expr, Diagnostic> {
        match name {
            "__enabled" => {
                let mut e = enabled.clone();
                e.span = sp;
                Ok(e)
            }
            "__uniform" => {
                let first = self.spec_for_thread(ins, &args[0], 0, enabled)?;
                let mut all = Expr::bool(true);
                for u in 1..self.th.ts {
                    let other = self.spec_for_thread(ins, &args[0], u, enabled)?;
                    let eq = Expr::eq(first.clone(), other);
                    all = if all.is_true() { eq } else { Expr::and(all, eq) };
                }
                let hole = Name::from(format!("$kivl_spec_hole{}", rd.holes.len()));
                rd.holes.push((hole.clone(), all));
                Ok(Expr::var(hole, sp))
            }
            "__other" => Err(Diagnostic::unsupported(
                "`__other` names the other thread of the two-thread reduction; it has no lock-step reading",
                sp,
            )),
            _ => {
                let write = name.starts_with("__write");
                let offset = name.ends_with("_offset");
                let ExprKind::Var(a) = &args[0].kind else {
                    return Err(Diagnostic::unsupported(format!("`{name}` of something other than a variable"), sp));
                };
                let Some(log) = ins.access_log(self, &a.name, write, t) else {
                    if offset {
                        return Err(Diagnostic::unsupported(
                            format!("`{name}({})` of a variable the kernel never accesses", a.name),
                            sp,
                        ));
                    }
                    return Ok(Expr::bool(false));
                };
                if !offset {
                    return Ok(Expr::binary(BinOp::Neq, log.log, log.empty));
                }
                if log.index.len() != 1 {
                    return Err(Diagnostic::unsupported(
                        format!("`{name}` of `{}`, which is not a one-dimensional array", a.name),
                        sp,
                    ));
                }
                let l = self.names.fresh("spec$offset");
                let at = Expr::new(ExprKind::Select(Box::new(log.log), vec![Expr::var(l.clone(), sp)]), sp);
                rd.bound.push((l.clone(), log.index[0].clone(), Expr::binary(BinOp::Neq, at, int_lit(0, sp))));
                Ok(Expr::var(l, sp))
            }
        }
    }
}
