//! Boogie's assumption variables, `var {:assumption} a: bool;`: the static rules.
//!
//! An assumption variable records assumptions made along the way: a local one starts `true`,
//! and it may only become stronger, `a := a && e` (Boogie 2.4.1, test2/AssumptionVariables0.bpl;
//! the verification semantics, including `havoc`, are in `vcgen::desugar::assumption_vars`).
//! Boogie rejects (test1/AssumptionVariables0.bpl, AssumptionVariables1.bpl), and so does
//! kivl, with type errors:
//! - an assumption variable of a type other than `bool`;
//! - one with a `where` clause;
//! - an assignment to one whose right-hand side is not `a && <expression>` with `a` the
//!   variable itself (so also a `call` that assigns it);
//! - a second assignment to the same variable anywhere in the program (source order: for a
//!   global, the assignments of all bodies count together).

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::modifies::walk_stmts;
use std::collections::{HashMap, HashSet};

/// The attribute that makes a variable an assumption variable.
pub const ATTR: &str = "assumption";

/// Whether a variable declared with `decl_attrs` (of its `var` list) and `v` is an assumption
/// variable.
pub fn is_assumption(decl_attrs: &[Attribute], v: &TypedIdent) -> bool {
    has_attr(decl_attrs, ATTR) || has_attr(&v.attrs, ATTR)
}

/// Checks the rules of the module doc on declarations whose spans are relative to their
/// offsets (as [`crate::check::check_program_rules_at`] gets them); diagnostics are absolute.
pub fn check(decls: &[(&Decl, u32)], diags: &mut Vec<Diagnostic>) {
    let mut globals = HashSet::new();
    for &(d, off) in decls {
        if let DeclKind::Var(vd) = &d.kind {
            for v in vd.vars.iter().filter(|v| is_assumption(&vd.attrs, v)) {
                declaration_rules(v, off, diags);
                globals.insert(v.name.name.clone());
            }
        }
    }
    let mut assigned_globals = HashSet::new();
    for &(d, off) in decls {
        let body = match &d.kind {
            DeclKind::Procedure(p) => p.body.as_ref(),
            DeclKind::Implementation(i) => Some(&i.body),
            _ => None,
        };
        if let Some(b) = body {
            check_body(b, &globals, &mut assigned_globals, off, diags);
        }
    }
}

fn declaration_rules(v: &TypedIdent, off: u32, diags: &mut Vec<Diagnostic>) {
    if v.ty.kind != TypeKind::Bool {
        diags.push(
            Diagnostic::type_error(
                format!("assumption variable `{}` must be of type `bool`", v.name.name),
                v.name.span,
            )
            .shifted(off),
        );
    }
    if v.where_clause.is_some() {
        diags.push(
            Diagnostic::type_error(
                format!("assumption variable `{}` may not be declared with a `where` clause", v.name.name),
                v.name.span,
            )
            .shifted(off),
        );
    }
}

/// The assignments of one body; `assigned_globals` carries the globals assigned before it.
fn check_body(
    b: &Body,
    globals: &HashSet<Name>,
    assigned_globals: &mut HashSet<Name>,
    off: u32,
    diags: &mut Vec<Diagnostic>,
) {
    // Locals of the body, assumption or not (a plain local shadows an assumption global).
    let mut locals: HashMap<Name, bool> = HashMap::new();
    for d in &b.locals {
        for v in &d.vars {
            let assumption = is_assumption(&d.attrs, v);
            if assumption {
                declaration_rules(v, off, diags);
            }
            locals.insert(v.name.name.clone(), assumption);
        }
    }
    let is_av = |n: &Name| locals.get(n).copied().unwrap_or_else(|| globals.contains(n));
    let mut assigned_locals = HashSet::new();
    let mut assigned = |id: &Ident, diags: &mut Vec<Diagnostic>| {
        let first = if locals.contains_key(&id.name) {
            assigned_locals.insert(id.name.clone())
        } else {
            assigned_globals.insert(id.name.clone())
        };
        if !first {
            diags.push(
                Diagnostic::type_error(
                    format!("assumption variable `{}` may not be assigned to more than once", id.name),
                    id.span,
                )
                .shifted(off),
            );
        }
    };
    walk_stmts(&b.stmts, &mut |s| match &s.kind {
        StmtKind::Assign { lhss, rhss } => {
            for (l, r) in lhss.iter().zip(rhss) {
                if !is_av(&l.var.name) {
                    continue;
                }
                if !l.indices.is_empty() || !strengthens(&l.var.name, r) {
                    diags.push(not_strengthening(&l.var, off));
                } else {
                    assigned(&l.var, diags);
                }
            }
        }
        StmtKind::Call { outs, .. } => {
            for o in outs.iter().filter(|o| is_av(&o.name)) {
                diags.push(not_strengthening(o, off));
            }
        }
        _ => {}
    });
}

/// `rhs` is `a && e`.
fn strengthens(a: &Name, rhs: &Expr) -> bool {
    matches!(&rhs.kind, ExprKind::Binary(BinOp::And, l, _) if matches!(&l.kind, ExprKind::Var(x) if &x.name == a))
}

fn not_strengthening(a: &Ident, off: u32) -> Diagnostic {
    Diagnostic::type_error(
        format!("an assumption variable may only be assigned `{0} := {0} && <boolean expression>`", a.name),
        a.span,
    )
    .with_label("assumption variables only become stronger (Boogie's rule)")
    .shifted(off)
}
