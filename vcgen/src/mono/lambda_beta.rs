//! Lambdas with type parameters that are applied where they stand,
//! `(lambda<beta> b: beta, s: T :: b == c && s == t)[c, t]` (Boogie's test2/LambdaPoly.bpl):
//! the select is replaced by the lambda's body at the instantiation the type checker inferred
//! for it (`beta := Cracker`), with the indices substituted for the bound variables.
//!
//! In Boogie 2 a lambda denotes the map whose value at every index (and every instantiation of
//! its type parameters) is its body there (Leino, "This is Boogie 2", §4.2), so this
//! beta-reduction is an equivalence, not an approximation. It removes the lambda's type
//! parameters before monomorphisation, which otherwise meets them as a type quantifier in a
//! position both assumed and proved.
//!
//! Not reduced (left to monomorphisation, which reports them as `unsupported`): lambdas with
//! type parameters that are not applied where they stand (`k := (lambda<A> x: A :: x)`), and
//! bodies that mention `old`, where substituting an index that reads a global variable into
//! `old(..)` would change its meaning (the reason [`ivl::lets`] is careful there).

use ivl::ast::*;
use ivl::check::{build_env, check_decl_instances, InstanceKind, Ty};
use ivl::diag::Diagnostic;
use ivl::visit::{substitute, walk_expr, walk_expr_mut, Node, Visit, VisitMut};
use std::collections::HashMap;

use super::subst::{substitute_types, substitution};

/// At most this many rounds (one reduction per declaration each: a reduced body may hold a
/// select of a lambda whose instantiation only the round after can infer).
const MAX_ROUNDS: usize = 64;

/// Reduces the applied lambdas with type parameters of `decls`, outermost first.
pub fn reduce_applied_poly_lambdas(decls: &mut [Decl]) -> Result<(), Vec<Diagnostic>> {
    for _ in 0..MAX_ROUNDS {
        let todo: Vec<(usize, Span)> =
            decls.iter().enumerate().filter_map(|(k, d)| first_applied_poly_lambda(d).map(|s| (k, s))).collect();
        if todo.is_empty() {
            break;
        }
        let (env, diags) = build_env(decls);
        if !diags.is_empty() {
            return Err(diags);
        }
        for (k, span) in todo {
            let (diags, uses) = check_decl_instances(&env, &decls[k]);
            if !diags.is_empty() {
                return Err(diags);
            }
            let Some(u) = uses.iter().find(|u| u.span == span && matches!(u.kind, InstanceKind::Select(_))) else {
                return Err(vec![Diagnostic::unsupported(
                    "internal error: a lambda's instantiation was not found",
                    span,
                )]);
            };
            reduce_at(&mut decls[k], span, &u.tys);
        }
    }
    match decls.iter().find_map(first_applied_poly_lambda) {
        Some(span) => Err(vec![Diagnostic::unsupported(
            format!("lambdas with type parameters applied inside each other more than {MAX_ROUNDS} deep"),
            span,
        )]),
        None => Ok(()),
    }
}

/// Whether some declaration applies a lambda with type parameters where it stands.
pub fn has_applied_poly_lambda(decls: &[Decl]) -> bool {
    decls.iter().any(|d| first_applied_poly_lambda(d).is_some())
}

/// The lambda of `m[..]` if it has type parameters and a body without `old`.
fn reducible(m: &Expr) -> Option<&Quantifier> {
    match &m.kind {
        ExprKind::Quant(q) if q.kind == QuantKind::Lambda && !q.type_params.is_empty() && !has_old(&q.body) => Some(q),
        _ => None,
    }
}

/// Whether `old` occurs in `e`.
pub(super) fn has_old(e: &Expr) -> bool {
    struct Find(bool);
    impl Visit for Find {
        fn visit_expr(&mut self, e: &Expr) {
            self.0 |= matches!(e.kind, ExprKind::Old(_));
            walk_expr(self, e)
        }
    }
    let mut f = Find(false);
    f.visit_expr(e);
    f.0
}

/// The span of the first (outermost, leftmost) reducible select in `d`.
fn first_applied_poly_lambda(d: &Decl) -> Option<Span> {
    struct Find(Option<Span>);
    impl Visit for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if self.0.is_some() {
                return;
            }
            if let ExprKind::Select(m, _) = &e.kind {
                if reducible(m).is_some() {
                    self.0 = Some(e.span);
                    return;
                }
            }
            walk_expr(self, e)
        }
    }
    let mut f = Find(None);
    d.accept(&mut f);
    f.0
}

/// Replaces the reducible select at `span` by the lambda's body at `tys`, the indices
/// substituted (capture-avoiding) for the bound variables.
fn reduce_at(d: &mut Decl, span: Span, tys: &[Ty]) {
    struct Reduce<'a>(Span, &'a [Ty], bool);
    impl VisitMut for Reduce<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            if self.2 {
                return;
            }
            if let ExprKind::Select(m, idx) = &e.kind {
                if let Some(q) = reducible(m).filter(|_| e.span == self.0) {
                    let mut body = q.body.clone();
                    substitute_types(&mut body, &substitution(&q.type_params, self.1));
                    let map: HashMap<Name, Expr> =
                        q.vars.iter().zip(idx).map(|(v, i)| (v.name.name.clone(), i.clone())).collect();
                    let span = e.span;
                    *e = substitute(&body, &map);
                    e.span = span;
                    self.2 = true;
                    return;
                }
            }
            walk_expr_mut(self, e)
        }
    }
    d.accept_mut(&mut Reduce(span, tys, false));
}
