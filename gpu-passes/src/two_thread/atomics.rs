//! Atomics in the two-thread reduction, with GPUVerify's meaning (Bugle translates every
//! OpenCL/CUDA atomic to one opaque call; GPUVerify logs it as an *atomic* access of the
//! element and gives the call an arbitrary result):
//!
//! - the value returned to the thread is arbitrary: other threads, modelled or not, may have
//!   updated the element any number of times before, so no value can be assumed;
//! - the element's value afterwards is arbitrary too: nothing in the two-thread program reads
//!   it, because an array that is accessed atomically must be *adversarial*
//!   (`super::abstraction`: every read of it is a fresh arbitrary value). An atomic on an array
//!   whose values a specification mentions (or under `--abstraction equality`) would need the
//!   model of that array to forget the element at every atomic of every other thread, which is
//!   not done: it is a located `unsupported` (in `super::abstraction::abstract_reads`);
//! - the access races with a plain read or write of the same element by another thread with
//!   no barrier in between, and never with another atomic (`super::race_instrumentation` keeps
//!   a third log per array for atomics).
//!
//! [`lower_atomics`] runs on the preprocessed kernel body (every block starts with its guard, so
//! the new `assume`s are never taken for one; predication reads them as `assume v_active == B
//! ==> e`) and turns
//! `atomic x := op(A[i], args);` into plain statements the rest of the reduction knows:
//!
//! ```text
//! t := i;                                   // only for an index that reads shared memory
//! assume args == args;                      // only for arguments that read shared memory
//! assume {:atomic_access} A[t] == A[t];     // the atomic access (crate::lockstep::races::accesses)
//! havoc x;                                  // the arbitrary result
//! ```
//!
//! The operation itself does not matter: every operation is over-approximated by "any old
//! value, any new value", which is sound because the result is never assumed to be anything,
//! with one exception, GPUVerify's refined abstraction of counters (Bardsley and Donaldson,
//! NFM 2014): when every atomic on an array `C` in the kernel adds a positive constant
//! (`inc`, `add(C[i], k)` with a literal `0 < k < 2^(w-1)`), two threads that update the same
//! element get different old values, so `atomic x := inc(C[i]);` is followed by
//!
//! ```text
//! assume (__other(__enabled()) && i == __other(i)) ==> x != __other(x);
//! ```
//!
//! Why this is sound: the two modelled threads execute the statement in the same lock-step
//! step, hence in the same barrier interval; their two increments of `C[i]` are serialised, and
//! between them the element can only grow (every atomic on `C` adds a positive constant) unless
//! some thread writes it plainly, which is a race with one of the two atomics that the pair of
//! that thread is reported for. The fact is not used in the inter-group variant for a
//! group-shared counter (each group has its own copy). Like GPUVerify, it assumes that an
//! element is not incremented 2^w times (a bit-vector counter does not wrap around). A
//! counter read at two *different* statements gets no such fact (a value one thread took at
//! one site may equal a value the other took at another site only if … the proof would need
//! the history of the counter, which the two-thread program does not keep).

use crate::lockstep::{map_depth, map_levels, SharedVar};
use crate::predication::{typed, FreshNames};
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use std::collections::{HashMap, HashSet};

/// The attribute of the `assume` that stands for an atomic access.
pub(crate) const ATOMIC_ACCESS: &str = "atomic_access";

/// `e == e` (an assumption that only reads `e`).
fn reads_of(e: &Expr) -> Stmt {
    Stmt::new(StmtKind::Assume { attrs: vec![], expr: Expr::eq(e.clone(), e.clone()) }, e.span)
}

/// Whether an atomic adds a positive constant to its element (`inc`, `add` of a literal below
/// half the range).
fn increments(a: &AtomicStmt) -> bool {
    match (a.op, a.args.first().map(|e| &e.kind)) {
        (AtomicOp::Inc, _) => true,
        (AtomicOp::Add, Some(ExprKind::IntLit(v))) => *v > 0u32.into(),
        (AtomicOp::Add, Some(ExprKind::BvLit { value, width })) => {
            *value > 0u32.into() && *width >= 2 && value.bits() < u64::from(*width)
        }
        _ => false,
    }
}

/// The arrays whose every atomic in `body` is an increment ([`increments`]): their atomics
/// return values that differ per thread (see the module documentation).
pub(crate) fn counters(body: &BlockImpl) -> HashSet<Name> {
    let mut all: HashMap<Name, bool> = HashMap::new();
    for s in body.blocks.iter().flat_map(|b| &b.stmts) {
        if let StmtKind::Atomic(a) = &s.kind {
            *all.entry(a.target.var.name.clone()).or_insert(true) &= increments(a);
        }
    }
    all.into_iter().filter(|(_, inc)| *inc).map(|(n, _)| n).collect()
}

/// `f(args)`
fn call(f: &str, args: Vec<Expr>, span: Span) -> Expr {
    Expr::new(ExprKind::Call(Ident::new(f, span), args), span)
}

/// `assume (__other(__enabled()) && i == __other(i)) ==> x != __other(x);`
fn distinct(x: &Ident, target: &Lhs, span: Span) -> Stmt {
    let other = |e: Expr| call("__other", vec![e], span);
    let same =
        target.indices.iter().flatten().fold(other(call("__enabled", vec![], span)), |acc, i| {
            Expr::and(acc, Expr::eq(i.clone(), other(i.clone())))
        });
    let xv = Expr::new(ExprKind::Var(x.clone()), span);
    let differ = Expr::new(ExprKind::Binary(BinOp::Neq, Box::new(xv.clone()), Box::new(other(xv))), span);
    Stmt::new(StmtKind::Assume { attrs: vec![], expr: Expr::implies(same, differ) }, span)
}

/// See the module documentation. `counters`: the arrays whose atomics return distinct values
/// to the two modelled threads.
pub(crate) fn lower_atomics(
    body: &mut BlockImpl,
    shared: &HashMap<Name, SharedVar>,
    counters: &HashSet<Name>,
    names: &mut FreshNames,
) {
    let reads_shared = |e: &Expr| ivl::visit::free_vars(e).iter().any(|x| shared.contains_key(x));
    let mut new_locals = Vec::new();
    for b in &mut body.blocks {
        if !b.stmts.iter().any(|s| matches!(s.kind, StmtKind::Atomic(_))) {
            continue;
        }
        let mut out = Vec::with_capacity(b.stmts.len() + 4);
        for s in std::mem::take(&mut b.stmts) {
            let StmtKind::Atomic(a) = s.kind else {
                out.push(s);
                continue;
            };
            let sp = s.span;
            let index_tys: Vec<Type> = shared
                .get(&a.target.var.name)
                .and_then(|sv| map_levels(&sv.ty, map_depth(&sv.ty)))
                .map(|(levels, _)| levels.into_iter().flatten().collect())
                .unwrap_or_default();
            let mut target = a.target.clone();
            // (Without the index types the array's log cannot be declared either, and the
            // kernel is `unsupported` there.)
            for (k, ix) in target.indices.iter_mut().flatten().enumerate() {
                if reads_shared(ix) {
                    if let Some(ty) = index_tys.get(k) {
                        let t = names.fresh(&format!("{}$atomic_index", a.target.var.name));
                        new_locals.push(typed(&t, ty.clone()));
                        out.push(crate::predication::assign1(&t, ix.clone(), ix.span));
                        *ix = Expr::var(t, ix.span);
                    }
                }
            }
            out.extend(a.args.iter().filter(|e| reads_shared(e)).map(reads_of));
            let base = Expr::new(ExprKind::Var(target.var.clone()), target.var.span);
            let element =
                target.indices.iter().fold(base, |m, idx| Expr::new(ExprKind::Select(Box::new(m), idx.clone()), sp));
            let attrs = vec![Attribute { name: Ident::new(ATOMIC_ACCESS, sp), args: vec![], span: sp }];
            out.push(Stmt::new(StmtKind::Assume { attrs, expr: Expr::eq(element.clone(), element) }, sp));
            if let Some(x) = a.out {
                out.push(Stmt::new(StmtKind::Havoc(vec![x.clone()]), sp));
                let x_in_index = target.indices.iter().flatten().any(|i| ivl::visit::mentions(i, &x.name));
                if counters.contains(&target.var.name) && !x_in_index {
                    out.push(distinct(&x, &target, sp));
                }
            }
        }
        b.stmts = out;
    }
    body.locals.extend(new_locals);
}
