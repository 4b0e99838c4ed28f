//! What the facts read off declarations, statements and expressions as written: a
//! declaration's body, the reads of shared maps in an expression, the assumptions leading a
//! block.
//!
//! Separate because loops, procedure summaries and classification all read these, and they
//! need nothing of the facts.

use ivl::ast::*;
use ivl::check::GlobalEnv;
use ivl::visit::{walk_expr, Visit};

/// A body with what lowering needs: name, attributes, in- and out-parameters.
pub(super) type BodyParts<'d> = (&'d Name, &'d [Attribute], &'d [TypedIdent], &'d [TypedIdent], &'d Body);

/// The body of a procedure or implementation, if it has one.
pub(super) fn body_of(d: &Decl) -> Option<BodyParts<'_>> {
    match &d.kind {
        DeclKind::Procedure(p) => p.body.as_ref().map(|b| (&p.name.name, &p.attrs[..], &p.ins[..], &p.outs[..], b)),
        DeclKind::Implementation(i) => Some((&i.name.name, &i.attrs[..], &i.ins[..], &i.outs[..], &i.body)),
        _ => None,
    }
}

/// Reads of shared maps (`g[i]` with `g` a global variable) in an expression.
pub(super) fn shared_reads(env: &GlobalEnv, e: &Expr, out: &mut Vec<(Name, Expr, usize)>) {
    struct Reads<'a> {
        env: &'a GlobalEnv,
        out: &'a mut Vec<(Name, Expr, usize)>,
    }
    impl Visit for Reads<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Select(m, idx) = &e.kind {
                let mut levels = 1;
                let mut root = &**m;
                let mut outer = idx;
                while let ExprKind::Select(inner, i) = &root.kind {
                    levels += 1;
                    outer = i;
                    root = inner;
                }
                if let ExprKind::Var(g) = &root.kind {
                    if self.env.global_var(&g.name).is_some() && outer.len() == 1 {
                        self.out.push((g.name.clone(), outer[0].clone(), levels));
                    }
                }
            }
            walk_expr(self, e)
        }
    }
    Reads { env, out }.visit_expr(e);
}

/// The conditions of the `assume`s without attributes among the `assume` and `assert`
/// statements that lead `stmts`.
pub(super) fn leading_assumes(stmts: &[Stmt]) -> Vec<Expr> {
    stmts
        .iter()
        .take_while(|s| matches!(s.kind, StmtKind::Assume { .. } | StmtKind::Assert { .. }))
        .filter_map(|s| match &s.kind {
            StmtKind::Assume { attrs, expr } if attrs.is_empty() => Some(expr.clone()),
            _ => None,
        })
        .collect()
}
