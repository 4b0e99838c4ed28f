//! Type checking of Boogie's code expressions `|{ var x: T; A: S1 .. Sn goto B, C; B: .. return e; }|`
//! as written: their locals, labels, statements and returned values.
//!
//! Separate from their elimination ([`crate::code_exprs`]), which runs after type checking and
//! needs no checker; here they are one more expression form of the checker.

use super::*;

/// Type-checks a code expression: its locals are declared for its blocks only, the statements
/// are checked as in a body, `goto` targets must be its own labels and `return` needs a `bool`.
/// Its type is `bool`.
pub(crate) fn check_code(c: &mut Checker, ce: &CodeExpr) -> Ty {
    let mut shadowed = Vec::new();
    let mut declared: Vec<Name> = Vec::new();
    for d in &ce.locals {
        c.attrs(&d.attrs);
        let tys = c.var_types(d.vars.iter().map(|v| &v.ty));
        for (v, ty) in d.vars.iter().zip(tys) {
            let clash = c.bound.iter().any(|(n, _)| *n == v.name.name) || declared.contains(&v.name.name);
            if clash {
                c.report(
                    Diagnostic::type_error(
                        format!("local `{}` of a code expression redeclares a variable in scope", v.name.name),
                        v.name.span,
                    )
                    .with_label("choose a name not bound around the code expression"),
                );
                continue;
            }
            declared.push(v.name.name.clone());
            let local = Local { ty, kind: LocalKind::Local, span: v.name.span };
            shadowed.push((v.name.name.clone(), c.scope.insert(v.name.name.clone(), local)));
        }
    }
    for d in &ce.locals {
        for v in &d.vars {
            if let Some(w) = &v.where_clause {
                c.expect_bool(w, "a `where` clause");
            }
        }
    }
    let saved_labels = std::mem::take(&mut c.labels);
    for b in &ce.blocks {
        if let Some(prev) = c.labels.get(&b.label.name) {
            let d = Diagnostic::type_error(format!("duplicate label `{}`", b.label.name), b.label.span)
                .with_label("declared again here")
                .with_related(*prev, "first declared here");
            c.report(d);
        } else {
            c.labels.insert(b.label.name.clone(), b.label.span);
        }
    }
    for b in &ce.blocks {
        for s in &b.stmts {
            c.stmt(s);
        }
        match &b.end {
            CodeEnd::Goto(ts) => {
                for t in ts {
                    if !c.labels.contains_key(&t.name) {
                        c.report(
                            Diagnostic::type_error(format!("undeclared label `{}`", t.name), t.span)
                                .with_label("no block of this code expression has this label"),
                        );
                    }
                }
            }
            CodeEnd::Return(e) => c.expect_bool(e, "the value a code expression returns"),
        }
    }
    c.labels = saved_labels;
    for (name, prev) in shadowed.into_iter().rev() {
        match prev {
            Some(l) => c.scope.insert(name, l),
            None => c.scope.remove(&name),
        };
    }
    Ty::Bool
}
