//! Calls by contract (Boogie's `CallCmd.Desugar`; "This is Boogie 2" §8.3).
//!
//! `call x := P(a);`, with `P(f) returns (r)`, `modifies M`, becomes
//!
//! ```text
//! call$N$in$f := a;                      // only when `a` mentions a variable the call changes
//! assert {:check "precondition"} {:related_span <requires>} pre[f := a];   // non-free requires
//! call$N$old$g := g;                     // for each g in M (or an actual out) under old in P's ensures
//! havoc x, M;
//! assume post[f := a, r := x, old(g) := call$N$old$g];                    // every ensures
//! ```
//!
//! A `free call` (marked with [`FREE_CALL_ATTR`]) leaves out the preconditions: Boogie 2.4.1
//! neither checks nor assumes them (test2/FreeCall.bpl); the rest is the same.
//!
//! An out-parameter bound to a global goes through a temporary (`call$N$out$r`) so that the
//! ensures still see the global's own value. All statements get the span of the call.

use super::context::Context;
use super::contracts;
use super::inline::assign;
use super::names::Fresh;
use super::old::{old_vars, subst_expr};
use super::stmts::where_assumes;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::Diagnostic;
use ivl::lower::with_check;
use ivl::visit::free_vars;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Replaces every `call` of `imp` by its contract.
pub fn desugar_calls(ctx: &Context, imp: &mut BlockImpl, fresh: &mut Fresh) -> Result<(), Vec<Diagnostic>> {
    let has_calls = imp.blocks.iter().flat_map(|b| &b.stmts).any(|s| matches!(s.kind, StmtKind::Call { .. }));
    if !has_calls {
        return Ok(());
    }
    let scope: HashSet<Name> = contracts::local_scope(imp).keys().cloned().collect();
    let wheres = contracts::where_clauses(ctx, imp);
    let mut st = CallDesugarer {
        ctx,
        fresh,
        scope,
        wheres,
        locals: Vec::new(),
        counter: 0,
        infos: HashMap::new(),
        diags: Vec::new(),
    };
    for b in &mut imp.blocks {
        if !b.stmts.iter().any(|s| matches!(s.kind, StmtKind::Call { .. })) {
            continue;
        }
        let mut out = Vec::with_capacity(b.stmts.len() + 8);
        for s in std::mem::take(&mut b.stmts) {
            match &s.kind {
                StmtKind::Call { .. } => st.call(&s, &mut out),
                _ => out.push(s),
            }
        }
        b.stmts = out;
    }
    imp.locals.append(&mut st.locals);
    if st.diags.is_empty() {
        Ok(())
    } else {
        Err(st.diags)
    }
}

struct CallDesugarer<'a, 'c, 'f, 'g> {
    ctx: &'a Context<'c>,
    fresh: &'f mut Fresh<'g>,
    /// Formals and locals of the caller.
    scope: HashSet<Name>,
    wheres: HashMap<Name, Expr>,
    locals: Vec<TypedIdent>,
    counter: usize,
    infos: HashMap<Name, Rc<ProcInfo>>,
    diags: Vec<Diagnostic>,
}

/// What a call needs to know about its callee's contract, computed once per callee.
struct ProcInfo {
    formals: HashSet<Name>,
    /// Free variables of all contracts.
    contract_vars: Vec<Name>,
    /// Variables under `old` in the ensures.
    ensures_old: Vec<Name>,
}

impl<'c> CallDesugarer<'_, 'c, '_, '_> {
    fn info(&mut self, proc: &ProcedureDecl) -> Rc<ProcInfo> {
        if let Some(i) = self.infos.get(&proc.name.name) {
            return i.clone();
        }
        let mut contract_vars = Vec::new();
        let mut ensures_old = Vec::new();
        for c in &proc.contracts {
            contract_vars.extend(free_vars(&c.expr));
            if c.kind == SpecKind::Ensures {
                ensures_old.extend(old_vars(&c.expr));
            }
        }
        contract_vars.sort();
        contract_vars.dedup();
        let mut seen = HashSet::new();
        ensures_old.retain(|v| seen.insert(v.clone()));
        let info = Rc::new(ProcInfo {
            formals: proc.ins.iter().chain(&proc.outs).map(|f| f.name.name.clone()).collect(),
            contract_vars,
            ensures_old,
        });
        self.infos.insert(proc.name.name.clone(), info.clone());
        info
    }

    fn temp(&mut self, base: String, ty: &Type, span: Span) -> Name {
        let name = self.fresh.make(&base);
        self.locals.push(TypedIdent {
            name: Ident::new(name.clone(), span),
            ty: ty.clone(),
            where_clause: None,
            attrs: Vec::new(),
        });
        name
    }

    fn is_global(&self, n: &Name) -> bool {
        !self.scope.contains(n) && self.ctx.global(n).is_some()
    }

    /// Replaces the call `s` by its contract, appended to `out`.
    fn call(&mut self, s: &Stmt, out: &mut Vec<Stmt>) {
        let StmtKind::Call { outs, proc: pname, args, attrs } = &s.kind else {
            return;
        };
        let span = s.span;
        let Some((proc, info)) = self.callee(pname, args, outs, span) else {
            return;
        };
        let n = self.counter;
        self.counter += 1;

        let written: HashSet<Name> =
            outs.iter().map(|o| o.name.clone()).chain(proc.modifies.iter().map(|m| m.name.clone())).collect();
        let mut map = self.bind_ins(n, proc, args, &written, span, out);
        preconditions(proc, attrs, &map, span, out);
        let old_map = self.old_snapshots(n, &info, &written, span, out);
        let copy_back = self.havoc_results(n, proc, outs, &mut map, span, out);
        // The callee's out-parameters satisfy their `where` clauses.
        let no_old = HashMap::new();
        for r in &proc.outs {
            if let Some(w) = &r.where_clause {
                out.push(Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: subst_expr(w, &map, &no_old) }, span));
            }
        }
        for c in proc.contracts.iter().filter(|c| c.kind == SpecKind::Ensures) {
            out.push(Stmt::new(
                StmtKind::Assume { attrs: c.attrs.clone(), expr: subst_expr(&c.expr, &map, &old_map) },
                span,
            ));
        }
        for (x, t) in copy_back {
            out.push(assign(&x.name, Expr::var(t, span), span));
        }
    }

    /// The called procedure and what its contract needs, if the call is well-formed: the
    /// procedure is declared, the arities match, and no local of the caller shadows a global
    /// that the contract or the modifies clause names. Otherwise the error is reported.
    fn callee(
        &mut self,
        pname: &Ident,
        args: &[Expr],
        outs: &[Ident],
        span: Span,
    ) -> Option<(&'c ProcedureDecl, Rc<ProcInfo>)> {
        let Some(proc) = self.ctx.procedure(&pname.name) else {
            self.diags
                .push(Diagnostic::type_error(format!("call of undeclared procedure `{}`", pname.name), pname.span));
            return None;
        };
        if args.len() != proc.ins.len() || outs.len() != proc.outs.len() {
            self.diags.push(Diagnostic::type_error(
                format!(
                    "call of `{}` with {} argument(s) and {} result(s); it has {} and {}",
                    pname.name,
                    args.len(),
                    outs.len(),
                    proc.ins.len(),
                    proc.outs.len()
                ),
                span,
            ));
            return None;
        }
        let info = self.info(proc);
        let formals = &info.formals;
        // Globals named by the contract or the modifies clause must not be shadowed here.
        for name in info.contract_vars.iter().chain(proc.modifies.iter().map(|m| &m.name)) {
            if !formals.contains(name) && self.scope.contains(name) && self.ctx.global(name).is_some() {
                self.diags.push(
                    Diagnostic::unsupported(
                        format!(
                            "local `{name}` shadows the global `{name}` that the contract of `{}` refers to",
                            pname.name
                        ),
                        span,
                    )
                    .with_label("in this call"),
                );
                return None;
            }
        }
        Some((proc, info))
    }

    /// The actual argument of each in-parameter: the argument itself, or a temporary
    /// (`call$N$in$f`) holding it when it mentions a variable the call changes.
    fn bind_ins(
        &mut self,
        n: usize,
        proc: &ProcedureDecl,
        args: &[Expr],
        written: &HashSet<Name>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> HashMap<Name, Expr> {
        let mut map: HashMap<Name, Expr> = HashMap::new();
        for (f, a) in proc.ins.iter().zip(args) {
            if free_vars(a).iter().any(|v| written.contains(v)) {
                let t = self.temp(format!("call${n}$in${}", f.name.name), &f.ty, span);
                out.push(assign(&t, a.clone(), span));
                map.insert(f.name.name.clone(), Expr::var(t, Span::DUMMY));
            } else {
                map.insert(f.name.name.clone(), a.clone());
            }
        }
        map
    }

    /// Snapshots (`call$N$old$g`) of the globals that the ensures read under `old` and the call
    /// changes; returns what `old(g)` becomes.
    fn old_snapshots(
        &mut self,
        n: usize,
        info: &ProcInfo,
        written: &HashSet<Name>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> HashMap<Name, Expr> {
        let mut old_map = HashMap::new();
        for g in &info.ensures_old {
            if info.formals.contains(g) || !written.contains(g) || !self.is_global(g) {
                continue;
            }
            let ty = self.ctx.global(g).expect("global").ty.clone();
            let t = self.temp(format!("call${n}$old${g}"), &ty, span);
            out.push(assign(&t, Expr::var(g.clone(), span), span));
            old_map.insert(g.clone(), Expr::var(t, Span::DUMMY));
        }
        old_map
    }

    /// Havocs the actual results and the modified globals (with their `where` clauses), binds
    /// each out-parameter in `map`; a result bound to a global goes through a temporary
    /// (`call$N$out$r`), returned with the global to copy it back to.
    fn havoc_results(
        &mut self,
        n: usize,
        proc: &ProcedureDecl,
        outs: &[Ident],
        map: &mut HashMap<Name, Expr>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Vec<(Ident, Name)> {
        let mut havoc: Vec<Name> = Vec::new();
        let mut copy_back = Vec::new();
        for (r, x) in proc.outs.iter().zip(outs) {
            if self.is_global(&x.name) {
                let t = self.temp(format!("call${n}$out${}", r.name.name), &r.ty, span);
                havoc.push(t.clone());
                map.insert(r.name.name.clone(), Expr::var(t.clone(), Span::DUMMY));
                copy_back.push((x.clone(), t));
            } else {
                havoc.push(x.name.clone());
                map.insert(r.name.name.clone(), Expr::var(x.name.clone(), Span::DUMMY));
            }
        }
        for m in &proc.modifies {
            if !havoc.contains(&m.name) {
                havoc.push(m.name.clone());
            }
        }
        if !havoc.is_empty() {
            out.push(Stmt::new(StmtKind::Havoc(havoc.iter().map(|h| Ident::new(h.clone(), span)).collect()), span));
            out.extend(where_assumes(&havoc, &|h| self.wheres.get(h).cloned(), span));
        }
        copy_back
    }
}

/// The checked (non-free) preconditions of `proc` with the actual arguments, as asserts; under
/// Boogie's `call {:verified_under e}`, checked only where `e` fails.
fn preconditions(
    proc: &ProcedureDecl,
    attrs: &[Attribute],
    map: &HashMap<Name, Expr>,
    span: Span,
    out: &mut Vec<Stmt>,
) {
    let no_old = HashMap::new();
    let under = attrs.iter().filter(|a| a.name.as_str() == "verified_under").filter_map(|a| match a.args.first() {
        Some(AttrArg::Expr(e)) => Some(e.clone()),
        _ => None,
    });
    let under = under.reduce(Expr::and);
    if attrs.iter().any(|a| a.name.as_str() == FREE_CALL_ATTR) {
        // Boogie 2.4.1's `free call`: the preconditions are neither checked nor assumed.
        return;
    }
    for c in proc.contracts.iter().filter(|c| c.kind == SpecKind::Requires && !c.free) {
        let attrs = with_check(&c.attrs, "precondition", Some(c.span));
        let mut expr = subst_expr(&c.expr, map, &no_old);
        if let Some(u) = &under {
            expr = Expr::implies(Expr::not(u.clone()), expr);
        }
        out.push(Stmt::new(StmtKind::Assert { attrs, expr }, span));
    }
}
