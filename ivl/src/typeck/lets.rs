//! Type checking of Boogie's let expressions `(var x, y := e1, e2; body)` as written, and the
//! refusal of a let-bound name under `old` whose value reads the state.
//!
//! Separate from their elimination ([`crate::lets`]), which runs after type checking and needs
//! no checker; here they are one more expression form of the checker.

use super::*;
use crate::visit::free_vars;

/// Type-checks a let expression: the values in the enclosing scope, then the body with the
/// names bound to the values' types. Its type is the body's.
pub(crate) fn check_let(c: &mut Checker, l: &LetExpr) -> Ty {
    let tys: Vec<Ty> = l.values.iter().map(|v| c.expr(v)).collect();
    let mark = c.bound.len();
    for (x, ty) in l.vars.iter().zip(tys) {
        let clash = c.bound.iter().any(|(n, _)| *n == x.name) || c.scope.contains_key(&x.name);
        if clash || l.vars.iter().filter(|y| y.name == x.name).count() > 1 {
            // Boogie: "more than one declaration of variable name".
            c.report(
                Diagnostic::type_error(
                    format!("let-bound variable `{}` redeclares a variable in scope", x.name),
                    x.span,
                )
                .with_label("Boogie forbids let-bound names that shadow parameters, locals or bound variables"),
            );
        }
        c.bound.push((x.name.clone(), ty));
    }
    let t = c.expr(&l.body);
    c.bound.truncate(mark);
    if let Some(span) = old_use_of_state(c, l) {
        c.report(
            Diagnostic::unsupported(
                "a let-bound variable whose value reads a global variable is used inside `old`",
                span,
            )
            .with_label("kivl replaces the name by its value, which `old` would read in the entry state"),
        );
    }
    t
}

/// The span of the first use under `old(...)` of a let-bound name whose value may read the
/// state: it mentions a global variable, or a bound name (an enclosing let's name may stand
/// for a global, as in `(var a := g; (var b := a; old(b)))`). Parameters, locals and
/// constants are the same under `old`.
fn old_use_of_state(c: &Checker, l: &LetExpr) -> Option<Span> {
    let reads_state = |v: &Expr| {
        free_vars(v).iter().any(|n| !c.scope.contains_key(n) && !c.env.global(n).is_some_and(|g| g.is_const()))
    };
    let names: Vec<&Name> =
        l.vars.iter().zip(&l.values).filter(|(_, v)| reads_state(v)).map(|(x, _)| &x.name).collect();
    if names.is_empty() {
        return None;
    }
    let mut found = None;
    find_under_old(&l.body, &names, false, &mut found);
    found
}

fn find_under_old(e: &Expr, names: &[&Name], under_old: bool, found: &mut Option<Span>) {
    if found.is_some() {
        return;
    }
    match &e.kind {
        ExprKind::Var(x) if under_old && names.contains(&&x.name) => *found = Some(x.span),
        ExprKind::Old(a) => find_under_old(a, names, true, found),
        _ => {
            // Children other than through `old`: a shallow visitor over the direct children.
            struct Children<'a, 'b>(&'a [&'b Name], bool, &'a mut Option<Span>);
            impl crate::visit::Visit for Children<'_, '_> {
                fn visit_expr(&mut self, e: &Expr) {
                    find_under_old(e, self.0, self.1, self.2)
                }
            }
            crate::visit::walk_expr(&mut Children(names, under_old, found), e);
        }
    }
}
