//! The contract of the implementation being verified, made explicit (Boogie's
//! `InjectPreconditions` / `InjectPostconditions`, with one check per `return` so that a failing
//! postcondition points at the return path that breaks it):
//!
//! ```text
//! PreconditionGeneratedEntry:
//!     old$g := g;                         // pre-state, for every global under `old`
//!     assume where-clauses;               // of globals, formals and locals
//!     assume requires;                    // free and non-free
//!     goto <old entry>;
//! ...
//! L:  ...; assert {:check "postcondition"} {:related_span <ensures>} ensures; return;
//! ```
//!
//! Every `old(e)` of the body and of the `ensures` becomes `e[g := old$g]` (module
//! [`super::old`]); the procedure's formals are renamed to the implementation's. A `havoc` of a
//! variable with a `where` clause is followed by `assume` of the clause.

use super::context::Context;
use super::inline::assign;
use super::names::Fresh;
use super::old::{contains_old, old_vars, subst_expr, subst_with_old};
use super::stmts::where_assumes;
use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use ivl::lower::with_check;
use std::collections::HashMap;

/// Adds the entry block and the postcondition checks, and eliminates `old`.
pub fn add_contracts(ctx: &Context, proc: &ProcedureDecl, imp: &mut BlockImpl, fresh: &mut Fresh) {
    // Procedure formal -> implementation formal.
    let mut rename: HashMap<Name, Expr> = HashMap::new();
    for (pf, f) in proc.ins.iter().zip(&imp.ins).chain(proc.outs.iter().zip(&imp.outs)) {
        if pf.name.name != f.name.name {
            rename.insert(pf.name.name.clone(), Expr::var(f.name.name.clone(), Span::DUMMY));
        }
    }
    // Free ensures are not checked here, so their `old`s need no snapshot.
    let contract_exprs: Vec<Expr> =
        proc.contracts.iter().filter(|c| !(c.free && c.kind == SpecKind::Ensures)).map(|c| c.expr.clone()).collect();
    let mut olds = old_vars(&contract_exprs);
    let mut has_old = Vec::with_capacity(imp.blocks.len());
    for b in &imp.blocks {
        let v = old_vars(&b.stmts);
        has_old.push(!v.is_empty() || contains_old(&b.stmts));
        olds.extend(v);
    }
    let scope: std::collections::HashSet<Name> = local_scope(imp).into_keys().collect();
    let span = Span { start: imp.span.start, end: imp.span.start };
    let mut entry = Vec::new();
    let mut old_map: HashMap<Name, Expr> = HashMap::new();
    for g in olds {
        if old_map.contains_key(&g) || scope.contains(&g) {
            continue;
        }
        let Some(global) = ctx.global(&g) else { continue };
        let snap = fresh.make(&format!("old${g}"));
        imp.locals.push(TypedIdent {
            name: Ident::new(snap.clone(), global.name.span),
            ty: global.ty.clone(),
            where_clause: None,
            attrs: Vec::new(),
        });
        entry.push(assign(&snap, Expr::var(g.clone(), span), span));
        old_map.insert(g, Expr::var(snap, Span::DUMMY));
    }

    // `where` clauses hold at the entry and after every havoc.
    let wheres = where_clauses(ctx, imp);
    let mut initial: Vec<Name> = ctx.global_names().into_iter().filter(|g| !scope.contains(g)).collect();
    initial.extend(imp.ins.iter().chain(&imp.outs).chain(&imp.locals).map(|x| x.name.name.clone()));
    entry.extend(where_assumes(&initial, &|n| wheres.get(n).cloned(), span));
    for c in proc.contracts.iter().filter(|c| c.kind == SpecKind::Requires) {
        let expr = subst_expr(&c.expr, &rename, &old_map);
        entry.push(Stmt::new(StmtKind::Assume { attrs: c.attrs.clone(), expr }, c.span));
    }

    let ensures: Vec<&Contract> = proc.contracts.iter().filter(|c| c.kind == SpecKind::Ensures && !c.free).collect();
    let posts: Vec<(Vec<Attribute>, Expr)> = ensures
        .iter()
        .map(|c| (with_check(&c.attrs, "postcondition", Some(c.span)), subst_expr(&c.expr, &rename, &old_map)))
        .collect();
    let no_map = HashMap::new();
    for (b, &old) in imp.blocks.iter_mut().zip(&has_old) {
        if old {
            subst_with_old(&mut b.stmts, &no_map, &old_map);
        }
        if !wheres.is_empty() {
            let mut stmts = Vec::with_capacity(b.stmts.len());
            for s in std::mem::take(&mut b.stmts) {
                let havoced: Vec<Name> = match &s.kind {
                    StmtKind::Havoc(xs) => xs.iter().map(|x| x.name.clone()).collect(),
                    _ => Vec::new(),
                };
                let sp = s.span;
                stmts.push(s);
                stmts.extend(where_assumes(&havoced, &|n| wheres.get(n).cloned(), sp));
            }
            b.stmts = stmts;
        }
        if b.term == Terminator::Return {
            for (attrs, expr) in &posts {
                b.stmts.push(Stmt::new(StmtKind::Assert { attrs: attrs.clone(), expr: expr.clone() }, b.span));
            }
        }
    }
    let label = Ident::new(fresh.make("PreconditionGeneratedEntry"), span);
    let first = imp.blocks[0].label.clone();
    imp.blocks.insert(0, Block { label, stmts: entry, term: Terminator::Goto(vec![first]), span });
}

/// The formals and locals of an implementation, by name.
pub fn local_scope(imp: &BlockImpl) -> HashMap<Name, &TypedIdent> {
    imp.ins.iter().chain(&imp.outs).chain(&imp.locals).map(|x| (x.name.name.clone(), x)).collect()
}

/// The `where` clause of every variable in scope in `imp` that has one (locals shadow globals).
/// A formal without one takes its procedure's, renamed to the implementation's formals.
pub fn where_clauses(ctx: &Context, imp: &BlockImpl) -> HashMap<Name, Expr> {
    let mut out = HashMap::new();
    for g in ctx.global_names() {
        if let Some(w) = ctx.global(&g).and_then(|x| x.where_clause.clone()) {
            out.insert(g, w);
        }
    }
    let proc = ctx.procedure(&imp.name.name);
    let (pins, pouts) = proc.map_or((&[][..], &[][..]), |p| (&p.ins[..], &p.outs[..]));
    let rename: HashMap<Name, Expr> = pins
        .iter()
        .zip(&imp.ins)
        .chain(pouts.iter().zip(&imp.outs))
        .map(|(p, i)| (p.name.name.clone(), Expr::var(i.name.name.clone(), Span::DUMMY)))
        .collect();
    let from_proc = |formals: &[TypedIdent], i: usize| {
        formals.get(i).and_then(|p| p.where_clause.as_ref()).map(|w| ivl::visit::substitute(w, &rename))
    };
    let formals = imp.ins.iter().enumerate().map(|(i, x)| (x, from_proc(pins, i)));
    let outs = imp.outs.iter().enumerate().map(|(i, x)| (x, from_proc(pouts, i)));
    for (x, inherited) in formals.chain(outs).chain(imp.locals.iter().map(|x| (x, None))) {
        match x.where_clause.clone().or(inherited) {
            Some(w) => out.insert(x.name.name.clone(), w),
            None => out.remove(&x.name.name),
        };
    }
    out
}
