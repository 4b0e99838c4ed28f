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
//! value, any new value", which is sound because the result is never assumed to be anything.

use crate::lockstep::{map_depth, map_levels, SharedVar};
use crate::predication::{typed, FreshNames};
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use std::collections::HashMap;

/// The attribute of the `assume` that stands for an atomic access.
pub(crate) const ATOMIC_ACCESS: &str = "atomic_access";

/// `e == e` (an assumption that only reads `e`).
fn reads_of(e: &Expr) -> Stmt {
    Stmt::new(StmtKind::Assume { attrs: vec![], expr: Expr::eq(e.clone(), e.clone()) }, e.span)
}

/// See the module documentation.
pub(crate) fn lower_atomics(body: &mut BlockImpl, shared: &HashMap<Name, SharedVar>, names: &mut FreshNames) {
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
            let mut k = 0;
            let mut target = a.target.clone();
            for ix in target.indices.iter_mut().flatten() {
                if reads_shared(ix) {
                    if let Some(ty) = index_tys.get(k) {
                        let t = names.fresh(&format!("{}$atomic_index", a.target.var.name));
                        new_locals.push(typed(&t, ty.clone()));
                        out.push(crate::predication::assign1(&t, ix.clone(), ix.span));
                        *ix = Expr::var(t, ix.span);
                    }
                }
                k += 1;
            }
            out.extend(a.args.iter().filter(|e| reads_shared(e)).map(reads_of));
            let base = Expr::new(ExprKind::Var(target.var.clone()), target.var.span);
            let element = target.indices.iter().fold(base, |m, idx| Expr::new(ExprKind::Select(Box::new(m), idx.clone()), sp));
            let attrs = vec![Attribute { name: Ident::new(ATOMIC_ACCESS, sp), args: vec![], span: sp }];
            out.push(Stmt::new(StmtKind::Assume { attrs, expr: Expr::eq(element.clone(), element) }, sp));
            if let Some(x) = a.out {
                out.push(Stmt::new(StmtKind::Havoc(vec![x]), sp));
            }
        }
        b.stmts = out;
    }
    body.locals.extend(new_locals);
}
