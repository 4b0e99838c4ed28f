//! The single-thread abstraction of seed 004 §4 (Fig. 4, Theorem 3): a kernel terminates if one
//! arbitrary thread terminates when every read of shared memory may return any value, every
//! write to shared memory is dropped, and a barrier is a no-op (the thread never waits).
//!
//! In KBPL every global `var` is shared memory (`{:group_shared}`, `{:global}` or unmarked), so
//! the pass works on the block form of each body:
//! - *A-ASSIGN*: a statement that reads a global `g` reads a fresh local `g$read` instead, havocked
//!   just before it. One havoc per statement: a statement is one atomic step of the interleaving
//!   semantics (seed 000 §3), so every read it makes sees one state of memory.
//! - *A-ARRAY*: assignments, havocs and call outputs whose target is a global are dropped (a call
//!   output goes to a fresh local instead).
//! - *A-BARRIER*: barriers are removed.
//! - *A-ATOMIC*: `atomic x := op(A[i], …)` becomes `havoc x;` (the read is arbitrary, the write
//!   dropped, as for the plain accesses above).
//! - Assertions are dropped: a failing assertion is reported by the race and assertion check, and
//!   `--termination` counts a kernel verified only when both hold. The leading assertions of a
//!   loop header are its invariants; they are kept, as Houdini candidates (see
//!   [`super::ranking`]), when they speak of the thread's own variables only; `__enabled()` is
//!   `true` in them (the thread is at the statements it executes), so GPUVerify-style invariants
//!   `__implies(__enabled(), …)` are kept.
//! - Contracts become free (assumed, not checked: the main verification checks them); clauses
//!   that mention shared memory or the two-thread specification built-ins (`__other`,
//!   `__uniform`, `__read`, …) say nothing about one thread alone and are dropped, as are
//!   `assume`s that do.
//!
//! Every step only adds executions (a read's real value is one of the values the havoc allows),
//! so a terminating abstract thread means a terminating kernel (Theorem 3).

use crate::two_thread::exprs::havoc_stmt;
use crate::two_thread::spec_builtins::{mentions_builtin, substitute_enabled};
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::cfg::Cfg;
use ivl::visit::{free_vars, substitute_in_place};
use std::collections::{BTreeSet, HashMap};
use vcgen::desugar::loops::leading_predicates;

/// Whether `e` says something about more than the thread's own variables.
pub(crate) fn mentions_shared(e: &Expr, shared: &HashMap<Name, Type>) -> bool {
    mentions_builtin(e) || free_vars(e).iter().any(|x| shared.contains_key(x))
}

/// Contracts for one thread: free, and only those over the thread's own variables.
pub(crate) fn abstract_contracts(contracts: &mut Vec<Contract>, shared: &HashMap<Name, Type>) {
    contracts.retain(|c| !mentions_shared(&c.expr, shared));
    for c in contracts.iter_mut() {
        c.free = true;
    }
}

/// The body `imp` of one thread under the abstract semantics.
pub(crate) fn abstract_body(imp: &mut BlockImpl, shared: &HashMap<Name, Type>) {
    let cfg = Cfg::new(imp);
    let headers: BTreeSet<usize> = cfg.loops().iter().map(|l| l.header).collect();
    let mut reads: BTreeSet<Name> = BTreeSet::new();
    let mut dropped_outputs: BTreeSet<Name> = BTreeSet::new();
    for (i, block) in imp.blocks.iter_mut().enumerate() {
        let invariants = if headers.contains(&i) { leading_predicates(&block.stmts) } else { 0 };
        let old = std::mem::take(&mut block.stmts);
        for (k, mut s) in old.into_iter().enumerate() {
            // The one thread is at every statement it executes: `__enabled()` holds there.
            let enabled = Expr::new(ExprKind::BoolLit(true), s.span);
            substitute_enabled(&mut s, &enabled);
            match &mut s.kind {
                StmtKind::Barrier { .. } => continue,
                // An atomic is a shared read (its result arbitrary) and a shared write (a no-op).
                StmtKind::Atomic(a) => match a.out.take() {
                    Some(x) => s.kind = StmtKind::Havoc(vec![x]),
                    None => continue,
                },
                StmtKind::Assert { expr, .. } if k >= invariants || mentions_shared(expr, shared) => continue,
                StmtKind::Assume { expr, .. } if mentions_shared(expr, shared) && k < invariants => continue,
                StmtKind::Assume { expr, .. } if mentions_builtin(expr) => continue,
                StmtKind::Assign { lhss, rhss } => {
                    let keep: Vec<bool> = lhss.iter().map(|l| !shared.contains_key(&l.var.name)).collect();
                    let mut it = keep.iter();
                    lhss.retain(|_| *it.next().expect("one flag per target"));
                    let mut it = keep.iter();
                    rhss.retain(|_| *it.next().expect("one flag per target"));
                    if lhss.is_empty() {
                        continue;
                    }
                }
                StmtKind::Havoc(xs) => {
                    xs.retain(|x| !shared.contains_key(&x.name));
                    if xs.is_empty() {
                        continue;
                    }
                }
                StmtKind::Call { outs, .. } => {
                    for o in outs.iter_mut().filter(|o| shared.contains_key(&o.name)) {
                        let local = Name::from(format!("{}$drop", o.name));
                        dropped_outputs.insert(o.name.clone());
                        o.name = local;
                    }
                }
                _ => {}
            }
            let read: Vec<Name> = free_vars(&s).into_iter().filter(|x| shared.contains_key(x)).collect();
            if !read.is_empty() {
                let map: HashMap<Name, Expr> = read.iter().map(|g| (g.clone(), Expr::var(shadow(g), s.span))).collect();
                substitute_in_place(&mut s, &map);
                block.stmts.push(havoc_stmt(&read.iter().map(shadow).collect::<Vec<_>>(), s.span));
                reads.extend(read);
            }
            block.stmts.push(s);
        }
    }
    let local = |name: Name, g: &Name| TypedIdent {
        name: Ident::new(name, Span::DUMMY),
        ty: shared[g].clone(),
        where_clause: None,
        attrs: vec![],
    };
    imp.locals.extend(reads.iter().map(|g| local(shadow(g), g)));
    imp.locals.extend(dropped_outputs.iter().map(|g| local(Name::from(format!("{g}$drop")), g)));
}

/// The local that stands for a read of shared variable `g` in one statement.
fn shadow(g: &Name) -> Name {
    Name::from(format!("{g}$read"))
}
