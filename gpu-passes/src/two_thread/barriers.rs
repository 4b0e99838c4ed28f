//! Barriers of the two-thread program (seed 001 §4.2 "Barriers", Table 4.2; seed 002 §5.2).
//!
//! A predicated `barrier {:enabled E}` (E: the thread is at the barrier's block) becomes:
//!
//! 1. the divergence check `assert E$1 == E$2` for threads of one group — seed 002's
//!    `¬(P_i ⊕ P_j)`, seed 000's barrier assertion for two threads: one thread reaching a
//!    barrier that the other does not reach in the same iteration is divergence; a grid-wide
//!    barrier is divergent when any two threads of the grid disagree, so it is checked for
//!    threads of different groups too;
//! 2. the check of the barrier invariants for each thread that reaches it
//!    (`super::barrier_invariants`);
//! 3. emptying the access logs of the memory the barrier fences, with the assume-based
//!    encoding of §4.2 (`assume E$1 ==> !R_HAS_OCCURRED_A && !W_HAS_OCCURRED_A`). `barrier
//!    {:local}` fences group-shared memory, `barrier {:global}` global memory, `barrier
//!    {:nofence}` neither, a plain `barrier` both. Threads in different groups synchronise only at
//!    a grid-wide barrier (`barrier {:grid}`, CUDA's `grid_group::sync()`): at any other barrier
//!    only the logs of group-shared memory (which the threads do not share) are emptied;
//! 4. the shared state becomes abstract: each modelled copy of a fenced array that a thread
//!    at the barrier sees is havocked (per-thread copies of one group get the same new value:
//!    the equality abstraction); an array no thread writes keeps its values
//!    (`super::abstraction::read_only`);
//! 5. the barrier invariants are assumed for the instantiated threads that are threads of the
//!    group (an instantiation outside `0 <= e < group_size_x` is not a thread: nothing is assumed).

use super::barrier_invariants::{instantiate_pair, instantiations, is_binary, mentions_other_thread, pairs};
use super::exprs::*;
use super::reduction::Instr;
use super::spec_builtins::for_thread;
use crate::lockstep::KernelCtx;
use crate::predication::barrier_enabled;
use ivl::ast::*;
use ivl::diag::Diagnostic;
use ivl::resolve::MemSpace;
use ivl::visit::substitute;
use std::collections::HashMap;

/// Which memory spaces a barrier's attributes fence: (group-shared, global). `{:nofence}`
/// (OpenCL's `barrier(0)`) fences neither: the threads wait, but their accesses on the two
/// sides may still race.
pub(crate) fn fences(attrs: &[Attribute]) -> (bool, bool) {
    if has_attr(attrs, "nofence") {
        return (false, false);
    }
    let (local, global) = (has_attr(attrs, "local"), has_attr(attrs, "global"));
    (local || !global, global || !local)
}

pub(crate) fn fenced(space: MemSpace, (local, global): (bool, bool)) -> bool {
    match space {
        MemSpace::GroupShared => local,
        MemSpace::Global | MemSpace::Unmarked => global,
    }
}

impl Instr {
    pub(crate) fn barrier(&mut self, kc: &mut KernelCtx, s: &Stmt, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        let StmtKind::Barrier { attrs, invariants } = &s.kind else { unreachable!() };
        let sp = s.span;
        let cond = barrier_enabled(attrs).cloned().unwrap_or_else(|| Expr::bool(true));
        let c = [kc.th.phi(&cond, 0), kc.th.phi(&cond, 1)];
        let fence = fences(attrs);
        let grid = has_attr(attrs, "grid");
        // 1. Divergence.
        if !self.inter || grid {
            let e =
                implies(self.guard.clone().unwrap_or_else(|| Expr::bool(true)), Expr::eq(c[0].clone(), c[1].clone()));
            let msg = if self.inter {
                "possible barrier divergence: of two threads of different groups, only one reaches this grid-wide \
                 barrier (in this loop iteration)"
            } else {
                "possible barrier divergence: of two threads of one group, only one reaches this barrier \
                 (in this loop iteration)"
            };
            out.push(assert_stmt(check_attrs_msg("divergence", None, msg, sp), e, sp));
        }
        // 2. Barrier invariants: checked with unknown locations arbitrary.
        if !invariants.is_empty() {
            out.extend(self.views.havoc_unknown(sp));
            // A binary invariant is checked for two threads of one group only.
            for inv in invariants.iter().filter(|i| !(self.inter && is_binary(i))) {
                for (t, ct) in c.iter().enumerate() {
                    let Some(phi) = for_thread(&self.env(kc), &inv.expr, t) else { continue };
                    let e = implies(ct.clone(), self.views.known_only(&phi));
                    let msg = format!("this barrier invariant might not hold for thread {}{}", t + 1, self.note());
                    out.push(assert_stmt(check_attrs_msg("barrier-invariant", Some(sp), &msg, inv.span), e, inv.span));
                }
            }
        }
        // 3. Access logs.
        for l in self.logs.values() {
            if fenced(l.space, fence) && (!self.inter || grid || l.space == MemSpace::GroupShared) {
                out.push(l.clear(c[0].clone(), sp));
            }
        }
        // 4. Abstract shared state.
        let mut arrays: Vec<Name> = self.copies.keys().chain(self.single.iter()).cloned().collect();
        arrays.sort();
        arrays.dedup();
        for a in &arrays {
            let sv = self.shared[a].clone();
            if !fenced(sv.space, fence) || self.read_only.contains(a) {
                continue;
            }
            let fresh = |kc: &mut KernelCtx, t: usize| kc.fresh_local(&format!("{a}$barrier{t}"), sv.ty.clone());
            match self.copies.get(a).cloned() {
                Some(copies) => {
                    // One group: both copies get the same new value (equality abstraction).
                    let h0 = fresh(kc, 1);
                    let h1 = if self.inter { fresh(kc, 2) } else { h0.clone() };
                    out.push(havoc_stmt(&if h0 == h1 { vec![h0.clone()] } else { vec![h0.clone(), h1.clone()] }, sp));
                    let pairs = copies
                        .iter()
                        .zip([&h0, &h1])
                        .enumerate()
                        .map(|(t, (n, h))| (lhs(n, vec![], sp), Expr::ite(c[t].clone(), var(h), var(n))))
                        .collect();
                    out.push(assign_stmt(pairs, sp));
                }
                None => {
                    let h = fresh(kc, 0);
                    out.push(havoc_stmt(std::slice::from_ref(&h), sp));
                    let any = Expr::or(c[0].clone(), c[1].clone());
                    out.push(assign_stmt(vec![(lhs(a, vec![], sp), Expr::ite(any, var(&h), var(a)))], sp));
                }
            }
            let cs = c.clone();
            out.extend(self.views.clear(kc, a, &|t| cs[t].clone(), sp));
        }
        // 5. Assume the invariants for the instantiated threads.
        for inv in invariants {
            for phi in self.instances(inv) {
                for (t, ct) in c.iter().enumerate() {
                    if let Some(e) = for_thread(&self.env(kc), &phi, t) {
                        out.push(assume_stmt(implies(ct.clone(), e), inv.span));
                    }
                }
            }
        }
        Ok(())
    }

    /// What a barrier invariant lets the modelled threads assume after the barrier, each read
    /// in each thread. The invariant was checked for real threads only, so an instantiation
    /// `e` that is not a thread id of the group (`-1`, `group_size_x`) learns nothing: each
    /// instance is guarded by its ids being in range. A binary invariant (`{:instantiate_pair
    /// a, b}`) was checked for pairs of distinct threads, so its instance is also guarded by
    /// `a != b` (GPUVerify's `BinaryBarrierInvariantDescriptor`); a unary invariant that
    /// mentions the other thread (`__other`, `__uniform`) relates the pair it was checked for,
    /// which an instantiation does not name: only its uninstantiated form is assumed.
    fn instances(&self, inv: &BarrierInvariant) -> Vec<Expr> {
        let lid = &self.local_id_x;
        let valid = |e: &Expr| substitute(&self.local_id_x_valid, &HashMap::from([(lid.clone(), e.clone())]));
        if is_binary(inv) {
            return pairs(inv)
                .iter()
                .filter_map(|(a, b)| {
                    let phi = instantiate_pair(&inv.expr, lid, a, b)?;
                    let distinct = Expr::not(Expr::eq(a.clone(), b.clone()));
                    Some(implies(Expr::and(Expr::and(valid(a), valid(b)), distinct), phi))
                })
                .collect();
        }
        let relational = mentions_other_thread(&inv.expr);
        instantiations(inv)
            .into_iter()
            .filter_map(|inst| match inst {
                // `{:instantiate local_id_x}` is the pair itself.
                Some(e) if relational && !matches!(&e.kind, ExprKind::Var(x) if x.name == *lid) => None,
                Some(e) => Some(implies(valid(&e), substitute(&inv.expr, &HashMap::from([(lid.clone(), e)])))),
                None => Some(inv.expr.clone()),
            })
            .collect()
    }
}
