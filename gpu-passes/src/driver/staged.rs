//! A first Houdini search without the modular candidates (`mod`, `div`: the `strength-reduced`
//! and `grid-stride` rules' `i mod group_size_x == local_id_x`, the strided access patterns);
//! when it verifies, that is the result, otherwise the search with every candidate follows.
//!
//! Why: with a symbolic modulus (`--local-size` not given) such a candidate makes the query
//! non-linear, and Z3 can spend the whole time limit on every check that contains it, even where
//! the proof does not need it (`tests/termination/grid_stride_int.kbpl`: 0.2 s without the
//! `strength-reduced` candidate, a timeout with it; issue 22). A candidate whose Houdini guard
//! is false still leaves its terms in the query, so the candidates are left out of the program,
//! not started false.
//!
//! Sound: each search is an ordinary Houdini search, which checks every implementation under
//! the candidates it keeps; leaving candidates out only assumes less. The cost is a second
//! search for the kernels whose proof needs a modular candidate, or that have an error (the
//! first search on fewer candidates is usually the cheaper one). GPUVerify runs all of its
//! candidates in one search; the order here is kivl's own.

use ivl::ast::{BinOp, Contract, Expr, ExprKind, Invariant, Program, Stmt, StmtKind};
use ivl::visit::{walk_expr, walk_stmt_mut, Visit, VisitMut};

/// `program` with every modular `{:candidate}` clause replaced by the plain clause `true`, or
/// `None` when it has none.
pub fn without_modular_candidates(program: &Program) -> Option<Program> {
    let mut cut = Cut { count: 0 };
    let mut p = program.clone();
    cut.visit_program(&mut p);
    (cut.count > 0).then_some(p)
}

struct Cut {
    count: usize,
}

impl Cut {
    /// A modular candidate becomes the plain clause `true`: no longer a candidate, so the
    /// inference report counts it as not checked rather than kept.
    fn clause(&mut self, attrs: &mut Vec<ivl::ast::Attribute>, expr: &mut Expr) {
        if ivl::ast::has_attr(attrs, "candidate") && is_modular(expr) {
            attrs.retain(|a| a.name.as_str() != "candidate");
            *expr = Expr::bool(true);
            self.count += 1;
        }
    }
}

impl VisitMut for Cut {
    fn visit_contract(&mut self, c: &mut Contract) {
        self.clause(&mut c.attrs, &mut c.expr);
    }
    fn visit_invariant(&mut self, i: &mut Invariant) {
        self.clause(&mut i.attrs, &mut i.expr);
    }
    fn visit_stmt(&mut self, s: &mut Stmt) {
        if let StmtKind::Assert { attrs, expr } = &mut s.kind {
            self.clause(attrs, expr);
        }
        walk_stmt_mut(self, s);
    }
    fn visit_expr(&mut self, _e: &mut Expr) {}
}

/// Whether `e` has an integer `mod`/`div` or a bit-vector remainder or quotient.
fn is_modular(e: &Expr) -> bool {
    struct Find(bool);
    impl Visit for Find {
        fn visit_expr(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Binary(BinOp::Mod | BinOp::Div, ..) => self.0 = true,
                ExprKind::Call(f, _)
                    if ["REM", "DIV", "bvurem", "bvsrem", "bvudiv", "bvsdiv"]
                        .iter()
                        .any(|op| f.name.as_str().contains(op)) =>
                {
                    self.0 = true
                }
                _ => walk_expr(self, e),
            }
        }
    }
    let mut f = Find(false);
    f.visit_expr(e);
    f.0
}
