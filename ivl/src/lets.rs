//! Boogie's let expressions `(var x, y := e1, e2; body)`: elimination (their type checking
//! is part of [`crate::typeck`]).
//!
//! Boogie 2 binds the names to the values (evaluated in the enclosing scope, simultaneously)
//! within `body`; the value of the whole is the body's (Boogie's `LetExpr`, test2/LambdaExt.bpl,
//! inline/test7.bpl). kivl type-checks the let as written ([`crate::typeck`]), then replaces it by the body with
//! the values substituted for the names ([`eliminate`], capture-avoiding through
//! [`crate::visit::substitute`]), so that no later stage sees a let.
//!
//! Substitution is exact except under `old`: in `(var x := g; old(x))` Boogie's `x` is the
//! current value of `g`, while `old(g)` would be its value at entry. A let-bound name used
//! inside `old(...)` whose value mentions a global variable (or a bound name, which may stand
//! for one) is therefore an `unsupported` diagnostic, never a silently changed meaning.

use crate::ast::*;
use crate::visit::{substitute, walk_expr_mut, VisitMut};
use std::collections::HashMap;

/// Replaces every let expression of a node by its body with the values substituted for the
/// names (innermost first).
pub fn eliminate<T: crate::visit::Node + ?Sized>(node: &mut T) {
    node.accept_mut(&mut Eliminate);
}

struct Eliminate;

impl VisitMut for Eliminate {
    fn visit_expr(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
        if let ExprKind::Let(l) = &e.kind {
            let map: HashMap<Name, Expr> =
                l.vars.iter().zip(&l.values).map(|(x, v)| (x.name.clone(), v.clone())).collect();
            *e = substitute(&l.body, &map);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_expr;
    use crate::printer::print_expr;
    use crate::visit::free_vars;

    fn eliminated(src: &str) -> String {
        let mut e = parse_expr(src).expect("parses");
        eliminate(&mut e);
        print_expr(&e)
    }

    #[test]
    fn values_replace_the_names() {
        assert_eq!(eliminated("(var x, y := a + 1, b; x * y)"), "(a + 1) * b");
        assert_eq!(eliminated("(var x := a; (var y := x + 1; y - x))"), "a + 1 - a");
    }

    #[test]
    fn substitution_avoids_capture() {
        // The value mentions `y`, which the quantifier inside binds: the bound `y` is renamed.
        assert_eq!(eliminated("(var x := y; (forall y: int :: x < y))"), "(forall y_1: int :: y < y_1)");
    }

    #[test]
    fn free_vars_of_a_let_skip_its_names() {
        let e = parse_expr("(var x := a; x + b)").expect("parses");
        assert_eq!(free_vars(&e), vec![Name::from("a"), Name::from("b")]);
    }
}
