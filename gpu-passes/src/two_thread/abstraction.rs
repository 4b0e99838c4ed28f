//! Abstraction of the shared state (seed 001 §4.1.3 and §4.4): with two modelled threads, the
//! other threads' effect on shared memory is over-approximated. Per shared array, one model:
//!
//! - **adversarial** (the default): the array is not modelled at all. A read gets an arbitrary
//!   value (a havocked per-thread temporary, Table 4.2's `tmp`), a write only goes to the race
//!   log;
//! - **single**: one copy shared by both threads (same group), written with the lock-step
//!   ψ-assignment; used for arrays whose values a specification talks about (barrier
//!   invariants, assertions, contracts) under the adversarial abstraction. Between barriers a
//!   location that neither modelled thread wrote can only have been changed by a racing
//!   thread, which another pair reports; at barriers the array is havocked (see
//!   `super::barriers`);
//! - **per-thread**: one copy per modelled thread — the *equality abstraction* (`--abstraction
//!   equality`: both copies are equal after every barrier, so the threads see equal values at
//!   locations they have not written since), and the model of specified arrays for threads in
//!   different groups (each sees its own group's memory).
//!
//! An array that no thread writes ([`read_only`]: no assignment, `havoc` or atomic access
//! to it anywhere in the kernel, called procedures inlined) is *read-only*: its values never
//! change. When a specification reads it (or under the equality abstraction; `reduction`
//! filters the set: GPUVerify's suite expects same-value copies of an unspecified read-only
//! array to race, CUDA/memcpy/fail_overstep), it gets the single model, both threads read the same values,
//! and barriers keep them (GPUVerify likewise keeps such arrays as ordinary maps, not
//! abstracted: `KernelArrayInfo.getReadOnlyNonLocalArrays`). In the inter-group variant a
//! read-only group-shared array gets one copy per thread (each group has its own memory, with
//! its own values), which barriers keep too.
//!
//! [`abstract_reads`] prepares a predicated body: before every statement that accesses shared
//! memory it puts a marker `assert {:two_thread_access K} true;` (the instrumentation finds
//! access group `K` there, see `super::race_instrumentation`), it replaces every read of an
//! adversarial array by a fresh private temporary that is havocked just before, and drops the
//! writes to adversarial arrays.

use crate::lockstep::{accesses, map_depth, map_levels, Access, SharedVar};
use crate::predication::FreshNames;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::Diagnostic;
use ivl::resolve::MemSpace;
use ivl::visit::strip_spans;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Model {
    Adversarial,
    Single,
    PerThread,
}

/// The model of every shared variable: `specified` are the arrays whose values specifications
/// mention, `read_only` those no thread writes (see [`read_only`]).
pub(crate) fn choose(
    shared: &HashMap<Name, SharedVar>,
    specified: &HashSet<Name>,
    read_only: &HashSet<Name>,
    equality: bool,
    inter_group: bool,
) -> HashMap<Name, Model> {
    shared
        .keys()
        .map(|a| {
            let m = if read_only.contains(a) {
                match shared[a].space {
                    MemSpace::GroupShared if inter_group => Model::PerThread,
                    _ => Model::Single,
                }
            } else if equality || (inter_group && specified.contains(a)) {
                Model::PerThread
            } else if specified.contains(a) {
                Model::Single
            } else {
                Model::Adversarial
            };
            (a.clone(), m)
        })
        .collect()
}

/// The shared arrays that keep their values for the whole kernel: those no statement of the
/// predicated body `imp` (called procedures inlined, atomics lowered) writes, havocs or accesses
/// atomically. A statement whose accesses cannot be analysed counts as writing every shared
/// variable it mentions.
pub(crate) fn read_only(imp: &BlockImpl, shared: &HashMap<Name, SharedVar>) -> HashSet<Name> {
    let mut written: HashSet<Name> = HashSet::new();
    for s in imp.blocks.iter().flat_map(|b| &b.stmts) {
        written.extend(ivl::visit::modified_vars(s));
        if !matches!(s.kind, StmtKind::Assign { .. } | StmtKind::Assume { .. }) {
            continue;
        }
        match accesses(shared, s) {
            Ok(acc) => written.extend(acc.into_iter().filter(|a| a.write || a.atomic).map(|a| a.var)),
            Err(_) => written.extend(ivl::visit::free_vars(s)),
        }
    }
    shared.keys().filter(|a| !written.contains(*a)).cloned().collect()
}

pub(crate) const MARKER: &str = "two_thread_access";

/// The access group a marker statement stands for.
pub(crate) fn marker_group(s: &Stmt) -> Option<usize> {
    let StmtKind::Assert { attrs, .. } = &s.kind else { return None };
    match find_attr(attrs, MARKER)?.args.first()? {
        AttrArg::Expr(Expr { kind: ExprKind::IntLit(v), .. }) => usize::try_from(v).ok(),
        _ => None,
    }
}

fn marker(k: usize, span: Span) -> Stmt {
    let attrs = vec![Attribute {
        name: Ident::new(MARKER, span),
        args: vec![AttrArg::Expr(Expr::new(ExprKind::IntLit(k.into()), span))],
        span,
    }];
    Stmt::new(StmtKind::Assert { attrs, expr: Expr::bool(true) }, span)
}

/// Replaces adversarial reads by temporaries, bottom-up (inner reads first).
struct Reads<'a> {
    shared: &'a HashMap<Name, SharedVar>,
    models: &'a HashMap<Name, Model>,
    names: &'a mut FreshNames,
    /// Read expression (spans stripped, inner reads already replaced) to its temporary.
    temps: Vec<(Expr, Name, Type)>,
}

impl Reads<'_> {
    fn adversarial(&self, x: &Name) -> bool {
        self.models.get(x) == Some(&Model::Adversarial)
    }

    /// The type read by `e` if it is a full read of an adversarial variable.
    fn read_type(&self, e: &Expr) -> Option<Type> {
        let mut base = e;
        let mut depth = 0;
        while let ExprKind::Select(m, _) = &base.kind {
            base = m;
            depth += 1;
        }
        let ExprKind::Var(x) = &base.kind else { return None };
        if !self.adversarial(&x.name) {
            return None;
        }
        let sv = &self.shared[&x.name];
        (map_depth(&sv.ty) == depth).then(|| map_levels(&sv.ty, depth).map(|(_, t)| t)).flatten()
    }

    fn expr(&mut self, e: &Expr) -> Expr {
        if matches!(e.kind, ExprKind::Old(_)) {
            return e.clone();
        }
        let mut e = e.clone();
        map_children(&mut e, &mut |c| self.expr(c));
        if let Some(ty) = self.read_type(&e) {
            let mut key = e.clone();
            strip_spans(&mut key);
            let name = match self.temps.iter().find(|(k, _, _)| *k == key) {
                Some((_, n, _)) => n.clone(),
                None => {
                    let base = match &key.kind {
                        ExprKind::Var(x) => x.name.clone(),
                        _ => {
                            let mut b = &key;
                            while let ExprKind::Select(m, _) = &b.kind {
                                b = m;
                            }
                            match &b.kind {
                                ExprKind::Var(x) => x.name.clone(),
                                _ => Name::from("shared"),
                            }
                        }
                    };
                    let n = self.names.fresh(&format!("{base}$read"));
                    self.temps.push((key, n.clone(), ty));
                    n
                }
            };
            return Expr::var(name, e.span);
        }
        e
    }
}

/// Applies `f` to the direct subexpressions of `e` (not under `old`, which the caller skips).
pub(crate) fn map_children(e: &mut Expr, f: &mut dyn FnMut(&Expr) -> Expr) {
    let mut g = |x: &mut Expr| *x = f(x);
    match &mut e.kind {
        ExprKind::BoolLit(_)
        | ExprKind::IntLit(_)
        | ExprKind::RealLit(_)
        | ExprKind::BvLit { .. }
        | ExprKind::Var(_)
        | ExprKind::Old(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Extract(a, _, _) | ExprKind::Coerce(a, _) => g(a),
        ExprKind::Let(l) => {
            l.values.iter_mut().for_each(&mut g);
            g(&mut l.body)
        }
        // Eliminated by the front end (ivl::code_exprs).
        ExprKind::Code(_) => {}
        ExprKind::Binary(_, a, b) => {
            g(a);
            g(b)
        }
        ExprKind::Call(_, args) => args.iter_mut().for_each(g),
        ExprKind::Select(m, idx) => {
            g(m);
            idx.iter_mut().for_each(g)
        }
        ExprKind::Store(m, idx, v) => {
            g(m);
            idx.iter_mut().for_each(&mut g);
            g(v)
        }
        ExprKind::IfThenElse(c, a, b) => {
            g(c);
            g(a);
            g(b)
        }
        ExprKind::Quant(q) => g(&mut q.body),
    }
}

/// See the module documentation. Returns the access groups (the accesses of each marked
/// statement, with adversarial reads replaced like in the statement); new temporaries become
/// locals of `imp`.
pub(crate) fn abstract_reads(
    imp: &mut BlockImpl,
    shared: &HashMap<Name, SharedVar>,
    models: &HashMap<Name, Model>,
    names: &mut FreshNames,
) -> Result<Vec<Vec<Access>>, Vec<Diagnostic>> {
    let mut groups = Vec::new();
    let mut diags = Vec::new();
    let mut new_locals = Vec::new();
    for b in &mut imp.blocks {
        let mut out = Vec::with_capacity(b.stmts.len());
        for s in std::mem::take(&mut b.stmts) {
            if !matches!(s.kind, StmtKind::Assign { .. } | StmtKind::Assume { .. }) {
                out.push(s);
                continue;
            }
            let acc = match accesses(shared, &s) {
                Ok(a) => a,
                Err(d) => {
                    diags.push(d);
                    continue;
                }
            };
            if acc.is_empty() {
                out.push(s);
                continue;
            }
            if let Some(d) = modelled_atomic(&acc, models) {
                diags.push(d);
                continue;
            }
            let mut rd = Reads { shared, models, names, temps: Vec::new() };
            let sp = s.span;
            let new_kind = rd.stmt_kind(&s);
            let acc: Vec<Access> = acc.into_iter().map(|a| rd.access(a)).collect();
            let acc = merged(acc);
            if !rd.temps.is_empty() {
                let temps: Vec<Ident> = rd.temps.iter().map(|(_, n, _)| Ident::new(n.clone(), sp)).collect();
                out.push(Stmt::new(StmtKind::Havoc(temps), sp));
                for (_, n, ty) in &rd.temps {
                    new_locals.push(crate::predication::typed(n, ty.clone()));
                }
            }
            out.push(marker(groups.len(), sp));
            groups.push(acc);
            if let Some(k) = new_kind {
                out.push(Stmt::new(k, sp));
            }
        }
        b.stmts = out;
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    imp.locals.extend(new_locals);
    Ok(groups)
}

/// The error for an atomic access to an array that is not adversarial (modelled), if any.
fn modelled_atomic(acc: &[Access], models: &HashMap<Name, Model>) -> Option<Diagnostic> {
    let a = acc.iter().find(|a| a.atomic && models.get(&a.var) != Some(&Model::Adversarial))?;
    Some(
        Diagnostic::unsupported(
            format!(
                "an atomic access to `{}`, whose values a specification mentions (or with `--abstraction \
                 equality`), is not supported",
                a.var
            ),
            a.span,
        )
        .with_label("this atomic")
        .with_note("the two-thread program models such an array, and would have to forget the element at every atomic of every thread"),
    )
}

/// One access per site and location (a branch condition is read by both guards): accesses
/// that differ only in their condition become one under the disjunction.
fn merged(acc: Vec<Access>) -> Vec<Access> {
    let mut merged: Vec<Access> = Vec::new();
    for a in acc {
        let key = |x: &Access| {
            let mut k = (x.loc.clone(), x.value.clone());
            strip_spans(&mut k.0);
            if let Some(v) = &mut k.1 {
                strip_spans(v);
            }
            (x.var.clone(), x.write, x.atomic, x.span, k)
        };
        match merged.iter_mut().find(|m| key(m) == key(&a)) {
            Some(m) => m.cond = Expr::or(m.cond.clone(), a.cond),
            None => merged.push(a),
        }
    }
    merged
}

impl Reads<'_> {
    /// An assignment or assumption with its adversarial reads replaced and its writes to
    /// adversarial arrays dropped (none when nothing is left).
    fn stmt_kind(&mut self, s: &Stmt) -> Option<StmtKind> {
        match &s.kind {
            StmtKind::Assign { lhss, rhss } => {
                let (mut l2, mut r2) = (Vec::new(), Vec::new());
                for (l, r) in lhss.iter().zip(rhss) {
                    if self.adversarial(&l.var.name) {
                        continue;
                    }
                    let mut l = l.clone();
                    for ix in l.indices.iter_mut().flatten() {
                        *ix = self.expr(ix);
                    }
                    l2.push(l);
                    r2.push(self.expr(r));
                }
                (!l2.is_empty()).then_some(StmtKind::Assign { lhss: l2, rhss: r2 })
            }
            StmtKind::Assume { attrs, expr } => Some(StmtKind::Assume { attrs: attrs.clone(), expr: self.expr(expr) }),
            _ => unreachable!(),
        }
    }

    /// An access with its adversarial reads replaced like in its statement.
    fn access(&mut self, mut a: Access) -> Access {
        a.cond = self.expr(&a.cond);
        a.loc = a.loc.iter().map(|e| self.expr(e)).collect();
        a.value = a.value.as_ref().map(|v| self.expr(v));
        a
    }
}
