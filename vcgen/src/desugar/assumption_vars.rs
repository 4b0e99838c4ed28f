//! Verification semantics of Boogie's assumption variables, `var {:assumption} a: bool;`
//! (the static rules are [`ivl::assumption_vars`]).
//!
//! Boogie 2.4.1 (test2/AssumptionVariables0.bpl, 3 verified and 3 errors) gives them two
//! rules, which kivl follows:
//! - a *local* assumption variable starts `true` (a global one is arbitrary on entry, like any
//!   global): `assert a0;` right after `var {:assumption} a0: bool;` verifies;
//! - `havoc a` may only make it stronger: the new value implies the old one. The static rules
//!   allow only `a := a && e` besides, so every execution that Boogie considers keeps each
//!   assumption variable decreasing, and this assumption loses none of them. Every `havoc` is
//!   rewritten, including those that desugaring makes for loop targets and call effects.
//!
//! [`assume_initially`] runs on the lowered body (a new entry block assumes the locals, so
//! that no loop header gains a leading statement); [`strengthen_havocs`] on the desugared one.

use super::names::Fresh;
use super::Context;
use ivl::assumption_vars::is_assumption;
use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use std::collections::HashSet;

/// Prepends an entry block assuming every local assumption variable of `imp`.
pub fn assume_initially(imp: &mut BlockImpl, fresh: &mut Fresh) {
    let assumes: Vec<Stmt> = imp
        .locals
        .iter()
        .filter(|v| is_assumption(&[], v))
        .map(|v| {
            Stmt::new(
                StmtKind::Assume { attrs: Vec::new(), expr: Expr::var(v.name.name.clone(), v.name.span) },
                v.name.span,
            )
        })
        .collect();
    let Some(entry) = imp.blocks.first() else { return };
    if assumes.is_empty() {
        return;
    }
    let label = Ident::new(fresh.make("assumption$entry"), entry.span);
    let block = Block { label, stmts: assumes, term: Terminator::Goto(vec![entry.label.clone()]), span: entry.span };
    imp.blocks.insert(0, block);
}

/// Rewrites every `havoc xs` that havocs assumption variables `a` into
/// `a$old := a; havoc xs; assume a ==> a$old;`.
pub fn strengthen_havocs(ctx: &Context, imp: &mut BlockImpl, fresh: &mut Fresh) {
    let mut vars: HashSet<Name> =
        imp.locals.iter().filter(|v| is_assumption(&[], v)).map(|v| v.name.name.clone()).collect();
    let shadowed: HashSet<&Name> = imp.ins.iter().chain(&imp.outs).chain(&imp.locals).map(|v| &v.name.name).collect();
    for d in &ctx.program.decls {
        if let DeclKind::Var(vd) = &d.kind {
            let globals = vd.vars.iter().filter(|v| is_assumption(&vd.attrs, v) && !shadowed.contains(&v.name.name));
            vars.extend(globals.map(|v| v.name.name.clone()));
        }
    }
    if vars.is_empty() {
        return;
    }
    let mut new_locals = Vec::new();
    for b in &mut imp.blocks {
        let stmts = std::mem::take(&mut b.stmts);
        for s in stmts {
            match &s.kind {
                StmtKind::Havoc(xs) if xs.iter().any(|x| vars.contains(&x.name)) => {
                    let (before, after) = bracket(xs, &vars, s.span, fresh, &mut new_locals);
                    b.stmts.extend(before);
                    b.stmts.push(s);
                    b.stmts.extend(after);
                }
                _ => b.stmts.push(s),
            }
        }
    }
    imp.locals.extend(new_locals);
}

/// The saving assignments and the implications around one havoc.
fn bracket(
    xs: &[Ident],
    vars: &HashSet<Name>,
    span: Span,
    fresh: &mut Fresh,
    new_locals: &mut Vec<TypedIdent>,
) -> (Vec<Stmt>, Vec<Stmt>) {
    let mut before = Vec::new();
    let mut after = Vec::new();
    for x in xs.iter().filter(|x| vars.contains(&x.name)) {
        let old = fresh.make(&format!("{}$old", x.name));
        new_locals.push(TypedIdent {
            name: Ident::new(old.clone(), span),
            ty: Type::new(TypeKind::Bool, span),
            where_clause: None,
            attrs: Vec::new(),
        });
        let lhs = Lhs { var: Ident::new(old.clone(), span), indices: Vec::new(), span };
        before.push(Stmt::new(StmtKind::Assign { lhss: vec![lhs], rhss: vec![Expr::var(x.name.clone(), span)] }, span));
        let implies = Expr::implies(Expr::var(x.name.clone(), span), Expr::var(old, span));
        after.push(Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: implies }, span));
    }
    (before, after)
}
