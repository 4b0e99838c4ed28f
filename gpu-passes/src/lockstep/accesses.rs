//! The shared-memory accesses of a predicated statement, as one step of a generic thread makes
//! them (seed 000 Definition 4.1): every shared location the step evaluates, with the condition
//! under which the thread reaches it — for guards, only what short-circuit evaluation reaches (a
//! guard `v_next == Bi ==> g` reads `g` only when the thread goes to `Bi`). Expressions of
//! `assert` statements are specifications, not accesses.
//!
//! Why a module of its own: the lock-step race checks (`super::races`) and the two-thread
//! reduction (`crate::two_thread`: race instrumentation, shared state abstraction) instrument
//! the same accesses; both collect them here.
//!
//! Not the same concept as `crate::invariants::facts::LoopAccess`: that one is a source-level
//! access *pattern* of a loop (outermost index only, with the conditions that dominate it) that
//! the candidate invariant rules match on; this one is an exact access of one predicated step,
//! with its whole location and the evaluation condition the instrumentation asserts on.

use super::{map_depth, shared_write, SharedVar};
use ivl::ast::*;
use ivl::diag::Diagnostic;
use ivl::visit::free_vars;
use std::collections::HashMap;

/// One access of a predicated statement, for a generic thread (expressions before `φ_t`).
#[derive(Clone, Debug)]
pub(crate) struct Access {
    pub var: Name,
    pub write: bool,
    /// The location: the indices of every `[...]` level, flattened (empty for a scalar).
    pub loc: Vec<Expr>,
    /// When the thread makes the access.
    pub cond: Expr,
    pub value: Option<Expr>,
    pub span: Span,
    /// An atomic access (`crate::two_thread::atomics`): races with reads and writes, not with
    /// other atomics.
    pub atomic: bool,
}

impl Access {
    /// A (non-atomic) read of `var` at `loc` under `cond`.
    fn read(var: &Name, loc: Vec<Expr>, cond: &Expr, span: Span) -> Access {
        Access { var: var.clone(), write: false, loc, cond: cond.clone(), value: None, span, atomic: false }
    }
}

fn and(a: &Expr, b: Expr) -> Expr {
    if a.is_true() {
        b
    } else {
        Expr::and(a.clone(), b)
    }
}

/// The shared reads of an expression evaluated under `pc`.
fn reads(shared: &HashMap<Name, SharedVar>, e: &Expr, pc: &Expr, out: &mut Vec<Access>) -> Result<(), Diagnostic> {
    let mut go = |x: &Expr, c: &Expr| reads(shared, x, c, out);
    match &e.kind {
        ExprKind::Var(x) if shared.contains_key(&x.name) => {
            if map_depth(&shared[&x.name].ty) > 0 {
                return Err(whole_map(&x.name, e.span));
            }
            out.push(Access::read(&x.name, vec![], pc, e.span));
            Ok(())
        }
        ExprKind::Select(..) => select_reads(shared, e, pc, out),
        ExprKind::Binary(BinOp::Implies | BinOp::And, a, b) => {
            go(a, pc)?;
            go(b, &and(pc, (**a).clone()))
        }
        ExprKind::Binary(BinOp::Or, a, b) => {
            go(a, pc)?;
            go(b, &and(pc, Expr::not((**a).clone())))
        }
        ExprKind::Binary(BinOp::Explies, a, b) => {
            go(b, pc)?;
            go(a, &and(pc, (**b).clone()))
        }
        ExprKind::Binary(_, a, b) => {
            go(a, pc)?;
            go(b, pc)
        }
        ExprKind::IfThenElse(c, a, b) => {
            go(c, pc)?;
            go(a, &and(pc, (**c).clone()))?;
            go(b, &and(pc, Expr::not((**c).clone())))
        }
        ExprKind::Old(_) => Ok(()),
        ExprKind::Quant(q) => match free_vars(&q.body).into_iter().find(|x| shared.contains_key(x)) {
            Some(x) => Err(Diagnostic::unsupported(
                format!("race checking of `{x}` inside a quantifier or lambda is not supported"),
                e.span,
            )),
            None => Ok(()),
        },
        ExprKind::Unary(_, a) | ExprKind::Extract(a, _, _) | ExprKind::Coerce(a, _) => go(a, pc),
        ExprKind::Let(_) => Err(Diagnostic::unsupported("let expressions are expanded before this stage", e.span)),
        ExprKind::Code(_) => Err(Diagnostic::unsupported("code expressions are eliminated before this stage", e.span)),
        // A log built-in (`__read(A)`, `__write_offset(A)`) names the map whose log it reads:
        // not a read of the map.
        ExprKind::Call(f, _) if crate::two_thread::spec_builtins::LOG_BUILTINS.contains(&f.as_str()) => Ok(()),
        ExprKind::Call(_, args) => args.iter().try_for_each(|a| go(a, pc)),
        ExprKind::Store(m, idx, v) => {
            go(m, pc)?;
            idx.iter().try_for_each(|i| go(i, pc))?;
            go(v, pc)
        }
        ExprKind::Var(_)
        | ExprKind::BoolLit(_)
        | ExprKind::IntLit(_)
        | ExprKind::RealLit(_)
        | ExprKind::BvLit { .. } => Ok(()),
    }
}

/// The reads of a select chain `m[i][j]` under `pc`: those of its indices, then the access
/// itself when `m` is a shared variable (read at every level), else those of the map operand.
fn select_reads(
    shared: &HashMap<Name, SharedVar>,
    e: &Expr,
    pc: &Expr,
    out: &mut Vec<Access>,
) -> Result<(), Diagnostic> {
    let mut chain: Vec<&Vec<Expr>> = Vec::new();
    let mut base = e;
    while let ExprKind::Select(m, idx) = &base.kind {
        chain.push(idx);
        base = m;
    }
    chain.reverse();
    match &base.kind {
        ExprKind::Var(x) if shared.contains_key(&x.name) => {
            if chain.len() != map_depth(&shared[&x.name].ty) {
                return Err(whole_map(&x.name, e.span));
            }
            for i in chain.iter().copied().flatten() {
                reads(shared, i, pc, out)?;
            }
            let loc = chain.into_iter().flatten().cloned().collect();
            out.push(Access::read(&x.name, loc, pc, e.span));
            Ok(())
        }
        _ => {
            reads(shared, base, pc, out)?;
            for i in chain.into_iter().flatten() {
                reads(shared, i, pc, out)?;
            }
            Ok(())
        }
    }
}

fn whole_map(x: &Name, span: Span) -> Diagnostic {
    Diagnostic::unsupported(
        format!("race checking of a use of the whole shared map `{x}` (not one location of it) is not supported"),
        span,
    )
}

/// The accesses of a predicated statement (reads before writes, as a step evaluates them).
pub(crate) fn accesses(shared: &HashMap<Name, SharedVar>, s: &Stmt) -> Result<Vec<Access>, Diagnostic> {
    let mut out = Vec::new();
    let mut writes = Vec::new();
    let t = Expr::bool(true);
    match &s.kind {
        StmtKind::Assign { lhss, rhss } => {
            for (l, r) in lhss.iter().zip(rhss) {
                if shared.contains_key(&l.var.name) {
                    let w = shared_write(l, r, s.span);
                    if w.path.len() != map_depth(&shared[&l.var.name].ty) {
                        return Err(whole_map(&l.var.name, s.span));
                    }
                    reads(shared, &w.cond, &t, &mut out)?;
                    for i in w.path.iter().flatten() {
                        reads(shared, i, &w.cond, &mut out)?;
                    }
                    reads(shared, &w.value, &w.cond, &mut out)?;
                    writes.push(Access {
                        var: l.var.name.clone(),
                        write: true,
                        loc: w.path.into_iter().flatten().collect(),
                        cond: w.cond,
                        value: Some(w.value),
                        // The target itself, as `kivl run` underlines it (the whole statement
                        // when a pass made the target without a location of its own).
                        span: if l.span == Span::DUMMY { s.span } else { l.span },
                        atomic: false,
                    });
                } else {
                    for i in l.indices.iter().flatten() {
                        reads(shared, i, &t, &mut out)?;
                    }
                    reads(shared, r, &t, &mut out)?;
                }
            }
        }
        StmtKind::Assume { expr, attrs } => {
            reads(shared, expr, &t, &mut out)?;
            if has_attr(attrs, crate::two_thread::atomics::ATOMIC_ACCESS) {
                out.iter_mut().for_each(|a| a.atomic = true);
            }
        }
        _ => {}
    }
    out.extend(writes);
    Ok(out)
}
