//! Procedures called by kernels (seed 001 §4.1.5, "Handling multiple procedures"; Table 4.3).
//!
//! Table 4.3 gives each procedure both threads' arguments and enabledness predicates; GPUVerify
//! itself inlines every call (§4.3: "full procedure inlining yields superior performance to
//! modular analysis"), and so does kivl: a callee's shared accesses and barriers must be
//! race-checked and divergence-checked in the caller's context anyway. Calls are inlined
//! before predication with the VC engine's inliner (`vcgen::desugar::inline`, which checks the
//! callee's `requires` at the call and its `ensures` at its end), so the inlined body is
//! predicated, duplicated and instrumented like the kernel's own code.
//!
//! A call to a procedure without a body is replaced by its contract, per thread: `assert`
//! the `requires`, `havoc` the results, `assume` the `ensures`. Such a procedure may not modify
//! shared memory (its accesses could not be race-checked). Recursion is refused.

use super::exprs::*;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::Diagnostic;
use ivl::lower::with_check;
use ivl::visit::substitute;
use std::collections::{HashMap, HashSet};
use vcgen::desugar::{inline::inline_calls, BodySource, Context};

/// The names of the procedures with a body (a procedure body or an implementation).
fn bodies(p: &Program) -> HashMap<Name, Vec<&Stmt>> {
    let mut out: HashMap<Name, Vec<&Stmt>> = HashMap::new();
    for d in &p.decls {
        let (name, body) = match &d.kind {
            DeclKind::Procedure(pr) => match &pr.body {
                Some(b) => (&pr.name.name, b),
                None => continue,
            },
            DeclKind::Implementation(i) => (&i.name.name, &i.body),
            _ => continue,
        };
        let mut calls = Vec::new();
        ivl::modifies::walk_stmts(&body.stmts, &mut |s| {
            if matches!(s.kind, StmtKind::Call { .. }) {
                calls.push(s);
            }
        });
        out.entry(name.clone()).or_default().extend(calls);
    }
    out
}

/// `p` with `{:inline 1}` on every non-kernel procedure that has a body, after checking that
/// no procedure reachable from a kernel is recursive.
pub(crate) fn mark_inlined(p: &Program) -> Result<Program, Vec<Diagnostic>> {
    let calls = bodies(p);
    let kernels: Vec<Name> =
        p.procedures().filter(|pr| has_attr(&pr.attrs, "kernel")).map(|pr| pr.name.name.clone()).collect();
    // Depth-first search for a cycle.
    fn visit(
        n: &Name,
        calls: &HashMap<Name, Vec<&Stmt>>,
        stack: &mut Vec<Name>,
        done: &mut HashSet<Name>,
        diags: &mut Vec<Diagnostic>,
    ) {
        if done.contains(n) {
            return;
        }
        stack.push(n.clone());
        for s in calls.get(n).into_iter().flatten() {
            let StmtKind::Call { proc, .. } = &s.kind else { continue };
            if stack.contains(&proc.name) {
                diags.push(
                    Diagnostic::unsupported(
                        format!(
                            "recursive call of `{}`: kernels and the procedures they call must not recurse",
                            proc.name
                        ),
                        s.span,
                    )
                    .with_label("this call"),
                );
                continue;
            }
            visit(&proc.name, calls, stack, done, diags);
        }
        stack.pop();
        done.insert(n.clone());
    }
    let mut diags = Vec::new();
    let mut done = HashSet::new();
    for k in &kernels {
        visit(k, &calls, &mut Vec::new(), &mut done, &mut diags);
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let mut out = p.clone();
    for d in &mut out.decls {
        if let DeclKind::Procedure(pr) = &mut d.kind {
            if !has_attr(&pr.attrs, "kernel") && calls.contains_key(&pr.name.name) {
                pr.attrs.retain(|a| a.name.as_str() != "inline");
                pr.attrs.push(attr("inline", vec![AttrArg::Expr(int(1))], Span::DUMMY));
            }
        }
    }
    Ok(out)
}

/// `p` with the calls in every kernel inlined or replaced by their callee's contract (the
/// kernels' bodies in block form; callees keep theirs). The lock-step path needs this before
/// predication, which predicates no calls; the two-thread path inlines while it builds.
pub fn inline_kernel_calls(p: &Program) -> Result<Program, Vec<Diagnostic>> {
    let shared: HashSet<Name> = p
        .decls
        .iter()
        .filter_map(|d| if let DeclKind::Var(v) = &d.kind { Some(v) } else { None })
        .flat_map(|v| v.vars.iter().map(|x| x.name.name.clone()))
        .collect();
    let marked = mark_inlined(p)?;
    let ctx = Context::new(&marked)?;
    let mut out = p.clone();
    let mut diags = Vec::new();
    for d in &mut out.decls {
        match &mut d.kind {
            DeclKind::Procedure(pr) if has_attr(&pr.attrs, "kernel") && pr.body.is_some() => {
                match kernel_body(&ctx, BodySource::Procedure(pr), &shared) {
                    Ok(b) => pr.body = Some(b.to_body()),
                    Err(e) => diags.extend(e),
                }
            }
            DeclKind::Implementation(i)
                if p.procedures().any(|pr| pr.name.name == i.name.name && has_attr(&pr.attrs, "kernel")) =>
            {
                match kernel_body(&ctx, BodySource::Implementation(i), &shared) {
                    Ok(b) => i.body = b.to_body(),
                    Err(e) => diags.extend(e),
                }
            }
            _ => {}
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// The body of a kernel in block form with every call inlined or replaced by its contract.
pub(crate) fn kernel_body(
    ctx: &Context,
    src: BodySource,
    shared: &HashSet<Name>,
) -> Result<BlockImpl, Vec<Diagnostic>> {
    let mut imp = match src {
        BodySource::Implementation(i) => ivl::lower::lower_body(i)?,
        BodySource::Procedure(p) => ivl::lower::lower_procedure_body(p)?,
    };
    let mut fresh = ctx.fresh();
    for x in imp.ins.iter().chain(&imp.outs).chain(&imp.locals) {
        fresh.reserve(&x.name.name);
    }
    for b in &imp.blocks {
        fresh.reserve(&b.label.name);
    }
    inline_calls(ctx, &mut imp, &mut fresh)?;
    ivl::cfg::remove_unreachable(&mut imp);
    let mut diags = Vec::new();
    for b in &mut imp.blocks {
        let mut out = Vec::with_capacity(b.stmts.len());
        for s in std::mem::take(&mut b.stmts) {
            match &s.kind {
                StmtKind::Call { outs, proc, args, .. } => match ctx.procedure(&proc.name) {
                    Some(pr) => match contract_call(pr, outs, args, s.span, shared) {
                        Ok(ss) => out.extend(ss),
                        Err(d) => diags.push(d),
                    },
                    None => {
                        diags.push(Diagnostic::type_error(format!("call of unknown procedure `{}`", proc.name), s.span))
                    }
                },
                _ => out.push(s),
            }
        }
        b.stmts = out;
    }
    if diags.is_empty() {
        Ok(imp)
    } else {
        Err(diags)
    }
}

/// A call of a procedure without a body: `assert requires; havoc outs; assume ensures`.
fn contract_call(
    pr: &ProcedureDecl,
    outs: &[Ident],
    args: &[Expr],
    span: Span,
    shared: &HashSet<Name>,
) -> Result<Vec<Stmt>, Diagnostic> {
    if let Some(g) = pr.modifies.iter().find(|g| shared.contains(&g.name)) {
        return Err(Diagnostic::unsupported(
            format!(
                "`{}` has no body but modifies shared `{}`: its accesses cannot be race-checked",
                pr.name.name, g.name
            ),
            span,
        )
        .with_label("this call"));
    }
    if pr.ins.len() != args.len() || pr.outs.len() != outs.len() {
        return Err(Diagnostic::type_error(
            format!("wrong number of arguments or results for `{}`", pr.name.name),
            span,
        ));
    }
    let mut map: HashMap<Name, Expr> = pr.ins.iter().zip(args).map(|(f, a)| (f.name.name.clone(), a.clone())).collect();
    map.extend(pr.outs.iter().zip(outs).map(|(f, o)| (f.name.name.clone(), Expr::var(o.name.clone(), o.span))));
    let mut out = Vec::new();
    for c in &pr.contracts {
        let mut has_old = false;
        ivl::visit::Visit::visit_expr(&mut OldFinder(&mut has_old), &c.expr);
        if has_old {
            return Err(Diagnostic::unsupported(
                format!("`old` in the contract of `{}`, which has no body, is not supported in kernels", pr.name.name),
                c.span,
            ));
        }
    }
    for c in pr.contracts.iter().filter(|c| c.kind == SpecKind::Requires && !c.free) {
        let e = substitute(&c.expr, &map);
        out.push(assert_stmt(with_check(&c.attrs, "precondition", Some(c.span)), e, span));
    }
    if !outs.is_empty() {
        out.push(Stmt::new(StmtKind::Havoc(outs.to_vec()), span));
    }
    for c in pr.contracts.iter().filter(|c| c.kind == SpecKind::Ensures) {
        out.push(assume_stmt(substitute(&c.expr, &map), span));
    }
    Ok(out)
}

struct OldFinder<'a>(&'a mut bool);

impl ivl::visit::Visit for OldFinder<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        if matches!(e.kind, ExprKind::Old(_)) {
            *self.0 = true;
        }
        ivl::visit::walk_expr(self, e)
    }
}
