//! Terms that Z3 must not use as quantifier triggers: Boogie's `{:nopats e}` on a quantifier
//! and `{:never_pattern}` on a function (every application of the function inside the
//! quantifier), passed to Z3 as the quantifier's *no-patterns* (`Z3_mk_quantifier_const_ex`),
//! as Boogie 2.4.1 does (test2/NeverPattern.bpl, 2 verified and 3 errors; test2/Quantifiers.bpl).
//!
//! Why: without them Z3 may pick those terms as triggers and prove assertions that Boogie's
//! test expects to fail for want of an instantiation. Removing triggers only makes Z3 prove
//! less, so this never turns an error into "verified". The z3 crate has no no-pattern
//! parameter, so the quantifier is built with z3-sys on the crate's own context.

use crate::HashSet;
use ivl::ast::*;
use z3::ast::{Ast, Bool, Dynamic};
use z3::Context;

/// The functions declared `{:never_pattern}` or `{:never_pattern true}`.
pub fn never_pattern_functions(program: &Program) -> HashSet<Name> {
    program
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Function(f) => find_attr(&f.attrs, "never_pattern").map(|a| (f, a)),
            _ => None,
        })
        .filter(|(_, a)| !matches!(a.args.first(), Some(AttrArg::Expr(Expr { kind: ExprKind::BoolLit(false), .. }))))
        .map(|(f, _)| f.name.name.clone())
        .collect()
}

/// The source terms that must not be triggers of `q`: its `{:nopats}` arguments and the
/// applications of `never` functions in its body (outside nested binders, whose variables the
/// encoder of `q` does not know).
pub fn terms<'q>(q: &'q Quantifier, never: &HashSet<Name>) -> Vec<&'q Expr> {
    let mut out: Vec<&Expr> = q
        .attrs
        .iter()
        .filter(|a| a.name.as_str() == "nopats")
        .flat_map(|a| a.args.iter())
        .filter_map(|a| match a {
            AttrArg::Expr(e) => Some(e),
            _ => None,
        })
        .collect();
    if !never.is_empty() {
        applications(&q.body, never, &mut out);
    }
    out
}

fn applications<'q>(e: &'q Expr, never: &HashSet<Name>, out: &mut Vec<&'q Expr>) {
    match &e.kind {
        ExprKind::Quant(_) | ExprKind::Let(_) | ExprKind::Code(_) => {}
        ExprKind::Call(f, args) => {
            if never.contains(&f.name) {
                out.push(e);
            }
            args.iter().for_each(|a| applications(a, never, out));
        }
        ExprKind::Old(a) | ExprKind::Unary(_, a) | ExprKind::Extract(a, _, _) | ExprKind::Coerce(a, _) => {
            applications(a, never, out)
        }
        ExprKind::Binary(_, a, b) => {
            applications(a, never, out);
            applications(b, never, out);
        }
        ExprKind::Select(m, idx) => {
            applications(m, never, out);
            idx.iter().for_each(|a| applications(a, never, out));
        }
        ExprKind::Store(m, idx, v) => {
            applications(m, never, out);
            idx.iter().for_each(|a| applications(a, never, out));
            applications(v, never, out);
        }
        ExprKind::IfThenElse(c, a, b) => {
            applications(c, never, out);
            applications(a, never, out);
            applications(b, never, out);
        }
        _ => {}
    }
}

/// `forall`/`exists` `bounds` with the multi-patterns `patterns` (groups of terms) and
/// `no_patterns`; `None` when Z3 refuses them (the caller then builds the quantifier without
/// no-patterns).
pub fn quantifier(
    forall: bool,
    bounds: &[Dynamic],
    patterns: &[Vec<Dynamic>],
    no_patterns: &[Dynamic],
    body: &Bool,
) -> Option<Bool> {
    let ctx = Context::thread_local();
    let raw = |ds: &[Dynamic]| ds.iter().map(|d| d.get_z3_ast()).collect::<Vec<_>>();
    let bound = raw(bounds);
    let nopats = raw(no_patterns);
    let len = |n: usize| u32::try_from(n).ok();
    // SAFETY: every AST belongs to this thread's context, which reports errors by code (the
    // crate installs no error handler); the z3 crate's own `forall_const` makes the same call
    // without no-patterns. The result is wrapped (which takes a reference) at once.
    unsafe {
        let c = ctx.get_z3_context();
        let mut pats = Vec::with_capacity(patterns.len());
        for group in patterns {
            let terms = raw(group);
            pats.push(z3_sys::Z3_mk_pattern(c, len(terms.len())?, terms.as_ptr())?);
        }
        let q = z3_sys::Z3_mk_quantifier_const_ex(
            c,
            forall,
            0,
            z3_sys::Z3_mk_int_symbol(c, 0)?,
            z3_sys::Z3_mk_int_symbol(c, 0)?,
            len(bound.len())?,
            bound.as_ptr() as *const z3_sys::Z3_app,
            len(pats.len())?,
            pats.as_ptr(),
            len(nopats.len())?,
            nopats.as_ptr(),
            body.get_z3_ast(),
        );
        if z3_sys::Z3_get_error_code(c) != z3_sys::ErrorCode::OK {
            return None;
        }
        Some(Bool::wrap(&ctx, q?))
    }
}
