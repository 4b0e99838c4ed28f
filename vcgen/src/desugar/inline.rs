//! Inlining of calls to `{:inline N}` procedures (docs/kbpl.md §2.4), as Boogie 2.4.1 does under its
//! default `/inline:assume`.
//!
//! A call `call x := P(a);` of a procedure with a body and an integer `{:inline N}` (on the
//! procedure, which wins, or on its implementation) splits its block and splices in a copy of
//! P's body (Boogie's `Inliner.CreateInlinedBlocks`):
//!
//! ```text
//! inline$P$0$Entry:  inline$P$0$old$g := g;   // pre-state of P, for old(..) in P
//!                    inline$P$0$x := a;       // in-parameters become fresh locals
//!                    assert {:check "precondition"} pre;   // non-free requires of P
//!                    havoc inline$P$0$locals, inline$P$0$outs;
//!                    goto inline$P$0$<entry of P>;
//! inline$P$0$L: ...  (P's blocks, renamed; `return` jumps to inline$P$0$Return)
//! inline$P$0$Return: assert {:check "postcondition"} post;  // non-free ensures of P
//!                    x := inline$P$0$r;
//!                    goto <rest of the caller's block>;
//! ```
//!
//! Free requires and free ensures are dropped (Boogie asserts/assumes `true` for them); an
//! `ensures {:assume}` is assumed. Asserts in P's body stay checks. Calls inside the copy are
//! inlined in turn; each procedure's remaining depth is counted along the chain of inlined calls
//! (Boogie's `recursiveProcUnrollMap`): when it reaches 0 the call is replaced by
//! `assume false`, which cuts the path (Boogie's `/inline:assume`).
//!
//! Under `--inline-depth N` (Boogie's `/inlineDepth:N`, [`Context::with_inline_depth`]) calls
//! of procedures without `{:inline}` are inlined too; their copies assume the callee's
//! postconditions at the return, and past the depth the call stays a call.

use super::context::Context;
use super::names::Fresh;
use super::old::{old_vars, subst_expr, subst_with_old};
use super::stmts::{rename_targets, where_assumes};
use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use ivl::diag::Diagnostic;
use ivl::lower::with_check;
use std::collections::HashMap;

/// Inlines, in place, every call of an inlinable procedure in `imp`.
pub fn inline_calls(ctx: &Context, imp: &mut BlockImpl, fresh: &mut Fresh) -> Result<(), Vec<Diagnostic>> {
    let needs = imp.blocks.iter().flat_map(|b| &b.stmts).any(|s| match &s.kind {
        StmtKind::Call { proc, .. } => ctx.inline_depth(&proc.name).is_some(),
        _ => false,
    });
    if !needs {
        return Ok(());
    }
    let mut st = Inliner {
        ctx,
        fresh,
        locals: Vec::new(),
        remaining: HashMap::new(),
        instances: HashMap::new(),
        diags: Vec::new(),
    };
    let blocks = std::mem::take(&mut imp.blocks);
    imp.blocks = st.blocks(blocks);
    imp.locals.append(&mut st.locals);
    if st.diags.is_empty() {
        Ok(())
    } else {
        Err(st.diags)
    }
}

struct Inliner<'a, 'c, 'f, 'g> {
    ctx: &'a Context<'c>,
    fresh: &'f mut Fresh<'g>,
    locals: Vec<TypedIdent>,
    /// Remaining inlining depth of each procedure along the current chain of inlined calls.
    remaining: HashMap<Name, u64>,
    /// Number of copies made of each procedure (names the copies).
    instances: HashMap<Name, usize>,
    diags: Vec<Diagnostic>,
}

impl Inliner<'_, '_, '_, '_> {
    fn blocks(&mut self, blocks: Vec<Block>) -> Vec<Block> {
        let mut out = Vec::with_capacity(blocks.len());
        for block in blocks {
            let mut label = block.label.clone();
            let mut stmts = Vec::new();
            let mut part = 0;
            for s in block.stmts {
                let callee = match &s.kind {
                    StmtKind::Call { proc, .. } => self.ctx.inline_depth(&proc.name).map(|d| (proc.name.clone(), d)),
                    _ => None,
                };
                let Some((callee, depth)) = callee else {
                    stmts.push(s);
                    continue;
                };
                let remaining = *self.remaining.entry(callee.clone()).or_insert(depth);
                if remaining == 0 && self.ctx.inlined_by_depth(&callee) {
                    // Depth of --inline-depth exhausted: the call keeps its contract
                    // (Boogie's /inline:spec, as its Houdini inlines).
                    stmts.push(s);
                    continue;
                }
                if remaining == 0 {
                    // Depth exhausted: Boogie's /inline:assume.
                    stmts.push(Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: Expr::bool(false) }, s.span));
                    continue;
                }
                part += 1;
                let cont = Ident::new(self.fresh.make(&format!("{}${part}", block.label.name)), block.label.span);
                let Some((entry, copy)) = self.instantiate(&callee, &s, &cont) else {
                    stmts.push(s);
                    continue;
                };
                out.push(Block {
                    label,
                    stmts: std::mem::take(&mut stmts),
                    term: Terminator::Goto(vec![entry]),
                    span: s.span,
                });
                self.remaining.insert(callee.clone(), remaining - 1);
                let copy = self.blocks(copy);
                self.remaining.insert(callee, remaining);
                out.extend(copy);
                label = cont;
            }
            out.push(Block { label, stmts, term: block.term, span: block.span });
        }
        out
    }

    /// A renamed copy of the callee's body for the call `call`; returns its entry label and
    /// blocks, whose exit jumps to `cont`.
    fn instantiate(&mut self, callee: &Name, call: &Stmt, cont: &Ident) -> Option<(Ident, Vec<Block>)> {
        let StmtKind::Call { outs, args, proc: proc_id, .. } = &call.kind else {
            return None;
        };
        let body = self.ctx.inline_body(callee)?;
        let proc = self.ctx.procedure(callee)?;
        if args.len() != body.ins.len() || outs.len() != body.outs.len() {
            self.diags.push(Diagnostic::type_error(
                format!(
                    "call of `{}` with {} argument(s) and {} result(s); it has {} and {}",
                    callee,
                    args.len(),
                    outs.len(),
                    body.ins.len(),
                    body.outs.len()
                ),
                call.span,
            ));
            return None;
        }
        let n = self.instances.entry(callee.clone()).or_insert(0);
        let prefix = format!("inline${callee}${n}");
        *n += 1;
        let span = call.span;
        let vars = self.copy_vars(&prefix, body, proc);
        let (snapshots, old_map) = self.snapshots(&prefix, body, proc, &vars.rename, span);
        let labels = self.copy_labels(&prefix, body);
        let entry = Ident::new(self.fresh.make(&format!("{prefix}$Entry")), proc_id.span);
        let ret = Ident::new(self.fresh.make(&format!("{prefix}$Return")), proc_id.span);
        let copy = Instance { vars, old_map, labels, span };

        let stmts = self.entry_stmts(&copy, snapshots, proc, args);
        let first = copy.labels[&body.blocks[0].label.name].clone();
        let mut out = vec![Block { label: entry.clone(), stmts, term: Terminator::Goto(vec![first]), span }];
        out.extend(copy.body(body, &ret));
        out.push(Block {
            label: ret,
            stmts: copy.exit_stmts(proc, outs, self.ctx.assume_inlined_ensures()),
            term: Terminator::Goto(vec![cont.clone()]),
            span,
        });
        Some((entry, out))
    }

    /// Formals and locals of the copy become fresh locals of the caller.
    fn copy_vars(&mut self, prefix: &str, body: &BlockImpl, proc: &ProcedureDecl) -> CopyVars {
        let mut rename: HashMap<Name, Name> = HashMap::new();
        let start = self.locals.len();
        let new_var = |st: &mut Self, x: &TypedIdent, rename: &mut HashMap<Name, Name>| -> Name {
            let name = st.fresh.make(&format!("{prefix}${}", x.name.name));
            rename.insert(x.name.name.clone(), name.clone());
            st.locals.push(TypedIdent {
                name: Ident::new(name.clone(), x.name.span),
                ty: x.ty.clone(),
                where_clause: x.where_clause.clone(),
                attrs: Vec::new(),
            });
            name
        };
        let ins: Vec<Name> = body.ins.iter().map(|x| new_var(self, x, &mut rename)).collect();
        let outs: Vec<Name> = body
            .outs
            .iter()
            .enumerate()
            .map(|(i, x)| {
                // An implementation's out-parameter has its procedure's `where` clause.
                let mut x = x.clone();
                if x.where_clause.is_none() {
                    x.where_clause = proc.outs.get(i).and_then(|p| p.where_clause.clone());
                }
                new_var(self, &x, &mut rename)
            })
            .collect();
        let locals: Vec<Name> = body.locals.iter().map(|x| new_var(self, x, &mut rename)).collect();
        // The procedure's formals may be named differently from the implementation's.
        for (pf, new) in proc.ins.iter().zip(&ins).chain(proc.outs.iter().zip(&outs)) {
            rename.entry(pf.name.name.clone()).or_insert_with(|| new.clone());
        }
        let map: HashMap<Name, Expr> =
            rename.iter().map(|(k, v)| (k.clone(), Expr::var(v.clone(), Span::DUMMY))).collect();
        // Where clauses of the copies refer to the copies.
        for l in &mut self.locals[start..] {
            if let Some(w) = &mut l.where_clause {
                subst_with_old(w, &map, &HashMap::new());
            }
        }
        CopyVars { rename, map, ins, outs, locals, start }
    }

    /// Pre-state snapshots of the globals that P reads under `old`: their assignments, and
    /// what `old(g)` becomes.
    fn snapshots(
        &mut self,
        prefix: &str,
        body: &BlockImpl,
        proc: &ProcedureDecl,
        rename: &HashMap<Name, Name>,
        span: Span,
    ) -> (Vec<Stmt>, HashMap<Name, Expr>) {
        let mut snapshots = Vec::new();
        let mut old_map = HashMap::new();
        let ensures = proc.contracts.iter().filter(|c| c.kind == SpecKind::Ensures);
        let mut old_names = old_vars(&ensures.map(|c| c.expr.clone()).collect::<Vec<_>>());
        for b in &body.blocks {
            old_names.extend(old_vars(&b.stmts));
        }
        for g in old_names {
            if rename.contains_key(&g) || old_map.contains_key(&g) {
                continue;
            }
            let Some(global) = self.ctx.global(&g) else {
                continue;
            };
            let snap = self.fresh.make(&format!("{prefix}$old${g}"));
            self.locals.push(TypedIdent {
                name: Ident::new(snap.clone(), span),
                ty: global.ty.clone(),
                where_clause: None,
                attrs: Vec::new(),
            });
            snapshots.push(assign(&snap, Expr::var(g.clone(), span), span));
            old_map.insert(g, Expr::var(snap, Span::DUMMY));
        }
        (snapshots, old_map)
    }

    /// The copy's label of each block of the body.
    fn copy_labels(&mut self, prefix: &str, body: &BlockImpl) -> HashMap<Name, Ident> {
        let label_of = |l: &Name| Ident::new(format!("{prefix}${l}"), Span::DUMMY);
        let mut labels: HashMap<Name, Ident> = HashMap::new();
        for b in &body.blocks {
            let l = label_of(&b.label.name);
            let name = self.fresh.make(&l.name);
            labels.insert(b.label.name.clone(), Ident::new(name, b.label.span));
        }
        labels
    }

    /// The entry block's statements: the snapshots, the in-parameters bound to the arguments,
    /// the checked preconditions, and the copy's locals and outs havocked (with their `where`
    /// clauses).
    fn entry_stmts(&self, copy: &Instance, snapshots: Vec<Stmt>, proc: &ProcedureDecl, args: &[Expr]) -> Vec<Stmt> {
        let span = copy.span;
        let mut stmts = snapshots;
        for (new, a) in copy.vars.ins.iter().zip(args) {
            stmts.push(assign(new, a.clone(), span));
        }
        for c in proc.contracts.iter().filter(|c| c.kind == SpecKind::Requires && !c.free) {
            let attrs = with_check(&c.attrs, "precondition", Some(c.span));
            let expr = subst_expr(&c.expr, &copy.vars.map, &copy.old_map);
            stmts.push(Stmt::new(StmtKind::Assert { attrs, expr }, span));
        }
        let havoced: Vec<Name> = copy.vars.locals.iter().chain(&copy.vars.outs).cloned().collect();
        if !havoced.is_empty() {
            stmts.push(Stmt::new(StmtKind::Havoc(havoced.iter().map(|n| Ident::new(n.clone(), span)).collect()), span));
            let wheres: HashMap<Name, Expr> = self.locals[copy.vars.start..]
                .iter()
                .filter_map(|l| l.where_clause.clone().map(|w| (l.name.name.clone(), w)))
                .collect();
            stmts.extend(where_assumes(&havoced, &|n| wheres.get(n).cloned(), span));
        }
        stmts
    }
}

/// The fresh locals of one copy of a callee.
struct CopyVars {
    /// Callee formal or local -> its copy.
    rename: HashMap<Name, Name>,
    /// The same, as expressions to substitute.
    map: HashMap<Name, Expr>,
    ins: Vec<Name>,
    outs: Vec<Name>,
    locals: Vec<Name>,
    /// Where the copy's locals start in [`Inliner::locals`].
    start: usize,
}

/// What renaming the body of one copy needs.
struct Instance {
    vars: CopyVars,
    /// Global under `old` -> its pre-state snapshot.
    old_map: HashMap<Name, Expr>,
    /// Body block -> its copy's label.
    labels: HashMap<Name, Ident>,
    span: Span,
}

impl Instance {
    /// The body's blocks, renamed; `return` jumps to `ret`.
    fn body(&self, body: &BlockImpl, ret: &Ident) -> Vec<Block> {
        let mut out = Vec::new();
        let target_renaming: HashMap<Name, Name> = self.vars.rename.clone();
        for b in &body.blocks {
            let mut stmts = b.stmts.clone();
            subst_with_old(&mut stmts, &self.vars.map, &self.old_map);
            for s in &mut stmts {
                rename_targets(s, &target_renaming);
            }
            let term = match &b.term {
                Terminator::Return => Terminator::Goto(vec![ret.clone()]),
                Terminator::Goto(ts) => Terminator::Goto(
                    ts.iter().map(|t| self.labels.get(&t.name).cloned().unwrap_or_else(|| t.clone())).collect(),
                ),
            };
            out.push(Block { label: self.labels[&b.label.name].clone(), stmts, term, span: b.span });
        }
        out
    }

    /// The exit block's statements: the checked postconditions (`{:assume}` ones assumed),
    /// and the call's results copied from the copy's outs.
    fn exit_stmts(&self, proc: &ProcedureDecl, outs: &[Ident], assume_all: bool) -> Vec<Stmt> {
        let span = self.span;
        let mut stmts = Vec::new();
        for c in proc.contracts.iter().filter(|c| c.kind == SpecKind::Ensures) {
            let expr = subst_expr(&c.expr, &self.vars.map, &self.old_map);
            if has_attr(&c.attrs, "assume") || (assume_all && !c.free) {
                stmts.push(Stmt::new(StmtKind::Assume { attrs: c.attrs.clone(), expr }, span));
            } else if !c.free {
                let attrs = with_check(&c.attrs, "postcondition", Some(c.span));
                stmts.push(Stmt::new(StmtKind::Assert { attrs, expr }, span));
            }
        }
        if !outs.is_empty() {
            let lhss = outs.iter().map(|o| Lhs { var: o.clone(), indices: Vec::new(), span: o.span }).collect();
            let rhss = self.vars.outs.iter().map(|n| Expr::var(n.clone(), span)).collect();
            stmts.push(Stmt::new(StmtKind::Assign { lhss, rhss }, span));
        }
        stmts
    }
}

/// `x := e;`
pub fn assign(x: &Name, e: Expr, span: Span) -> Stmt {
    let lhs = Lhs { var: Ident::new(x.clone(), span), indices: Vec::new(), span };
    Stmt::new(StmtKind::Assign { lhss: vec![lhs], rhss: vec![e] }, span)
}
