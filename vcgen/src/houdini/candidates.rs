//! `{:candidate}` clauses (docs/kbpl.md §5.4) as Houdini candidates: each becomes `b ==> φ`
//! with a fresh `const {:existential true} b: bool;`, Boogie's (and GPUVerify's) form of a
//! candidate, before desugaring.

use crate::HashSet;
use ivl::ast::*;
use ivl::visit::{all_names, walk_stmt_mut, VisitMut};

/// Replaces each `{:candidate}` clause φ (invariant, requires, ensures, assert) by `b ==> φ` for
/// a fresh `const {:existential true} b: bool;`, and removes the attribute. Returns the new
/// program and each guard with the span of its clause.
pub fn guard_candidates(program: &Program) -> (Program, Vec<(Name, Span)>) {
    struct Guard {
        taken: HashSet<Name>,
        next: usize,
        made: Vec<(Name, Span)>,
    }
    impl Guard {
        fn guard(&mut self, attrs: &mut Vec<Attribute>, expr: &mut Expr, span: Span) {
            if !has_attr(attrs, "candidate") {
                return;
            }
            attrs.retain(|a| a.name.as_str() != "candidate");
            let name = loop {
                self.next += 1;
                let n = Name::from(format!("kivl$candidate{}", self.next));
                if !self.taken.contains(&n) {
                    break n;
                }
            };
            self.taken.insert(name.clone());
            self.made.push((name.clone(), span));
            let body = std::mem::replace(expr, Expr::bool(true));
            *expr = Expr::implies(Expr::var(name, span), body);
        }
    }
    impl VisitMut for Guard {
        fn visit_contract(&mut self, c: &mut Contract) {
            self.guard(&mut c.attrs, &mut c.expr, c.span);
        }
        fn visit_invariant(&mut self, i: &mut Invariant) {
            self.guard(&mut i.attrs, &mut i.expr, i.span);
        }
        fn visit_stmt(&mut self, s: &mut Stmt) {
            let span = s.span;
            if let StmtKind::Assert { attrs, expr } = &mut s.kind {
                self.guard(attrs, expr, span);
            }
            walk_stmt_mut(self, s);
        }
        fn visit_expr(&mut self, _e: &mut Expr) {}
    }
    let mut g = Guard { taken: all_names(program).into_iter().collect(), next: 0, made: Vec::new() };
    let mut p = program.clone();
    g.visit_program(&mut p);
    for (name, span) in &g.made {
        p.decls.push(Decl {
            kind: DeclKind::Const(ConstDecl {
                attrs: vec![Attribute {
                    name: Ident::new("existential", *span),
                    args: vec![AttrArg::Expr(Expr::bool(true))],
                    span: *span,
                }],
                unique: false,
                names: vec![Ident::new(name.clone(), *span)],
                ty: Type::bool(),
                order_spec: None,
            }),
            span: *span,
        });
    }
    (p, g.made)
}
