//! The specification state of the procedure being built: its `requires` and `ensures`
//! clauses, the barrier invariants written before a barrier that has not come yet, and
//! whether (and for how many more instructions) a clause's operands are being folded.
//!
//! Apart from the translator because these are read at other times than they are written:
//! clauses are collected while the body is translated and printed in the procedure's header
//! afterwards; barrier invariants wait for their barrier; the folding flags span one clause,
//! however deep the fold goes. The folding itself is `folding.rs`, the annotations'
//! lowering `annotations.rs`.

use crate::Loc;

/// Instructions folded into one clause or guard at most.
pub(super) const FOLD_BUDGET: usize = 256;

#[derive(Default)]
pub(super) struct Clauses {
    requires: Vec<(String, Option<Loc>)>,
    ensures: Vec<(String, Option<Loc>)>,
    /// Barrier invariants waiting for their barrier: `invariant {:instantiate …} φ;` texts.
    pending_barrier_invariants: Vec<(String, Option<Loc>)>,
    /// Translating a specification's operands: memory reads there are not accesses.
    in_spec: bool,
    /// Instructions one clause or guard may still fold in (see `folding::arg`).
    fold_budget: usize,
}

impl Clauses {
    /// A precondition of the procedure.
    pub(super) fn require(&mut self, clause: String, loc: Option<Loc>) {
        self.requires.push((clause, loc));
    }

    /// A postcondition of the procedure.
    pub(super) fn ensure(&mut self, clause: String, loc: Option<Loc>) {
        self.ensures.push((clause, loc));
    }

    /// The preconditions, leaving none.
    pub(super) fn take_requires(&mut self) -> Vec<(String, Option<Loc>)> {
        std::mem::take(&mut self.requires)
    }

    /// The postconditions, leaving none.
    pub(super) fn take_ensures(&mut self) -> Vec<(String, Option<Loc>)> {
        std::mem::take(&mut self.ensures)
    }

    /// Every clause, the preconditions first.
    pub(super) fn clauses(&self) -> impl Iterator<Item = &(String, Option<Loc>)> {
        self.requires.iter().chain(&self.ensures)
    }

    /// Rewrites every clause.
    pub(super) fn rewrite(&mut self, mut fix: impl FnMut(&mut String)) {
        for r in self.requires.iter_mut().chain(self.ensures.iter_mut()) {
            fix(&mut r.0);
        }
    }

    /// A barrier invariant, for the next barrier.
    pub(super) fn await_barrier(&mut self, invariant: String, loc: Option<Loc>) {
        self.pending_barrier_invariants.push((invariant, loc));
    }

    /// The invariants the barrier being translated states, in the order they were written.
    pub(super) fn take_barrier_invariants(&mut self) -> Vec<String> {
        std::mem::take(&mut self.pending_barrier_invariants).into_iter().map(|i| i.0).collect()
    }

    /// Where the barrier invariants that no barrier followed were written (leaving none).
    pub(super) fn unmatched_barrier_invariants(&mut self) -> Vec<Option<Loc>> {
        std::mem::take(&mut self.pending_barrier_invariants).into_iter().map(|i| i.1).collect()
    }

    /// Starts folding one clause or guard: a full budget, and its memory reads are not
    /// accesses. Returns what [`Clauses::end_fold`] restores.
    pub(super) fn begin_fold(&mut self) -> bool {
        self.fold_budget = FOLD_BUDGET;
        std::mem::replace(&mut self.in_spec, true)
    }

    /// Ends a fold begun by [`Clauses::begin_fold`], which returned `outer`.
    pub(super) fn end_fold(&mut self, outer: bool) {
        self.in_spec = outer;
    }

    /// Whether one more instruction may be folded in (and counts it).
    pub(super) fn take_fold(&mut self) -> bool {
        if self.fold_budget == 0 {
            return false;
        }
        self.fold_budget -= 1;
        true
    }

    /// Whether a specification's operands are being translated.
    pub(super) fn in_spec(&self) -> bool {
        self.in_spec
    }
}

#[cfg(test)]
mod tests {
    use super::{Clauses, FOLD_BUDGET};
    use crate::Loc;

    fn at(line: u32) -> Option<Loc> {
        Some(Loc { line, col: 1 })
    }

    #[test]
    fn clauses_are_kept_in_order_and_taken_once() {
        let mut c = Clauses::default();
        c.require("a".into(), at(1));
        c.ensure("b".into(), at(2));
        c.require("c".into(), None);
        let all: Vec<&str> = c.clauses().map(|x| x.0.as_str()).collect();
        assert_eq!(all, ["a", "c", "b"]);
        c.rewrite(|s| s.push('!'));
        assert_eq!(c.take_requires(), [("a!".to_string(), at(1)), ("c!".to_string(), None)]);
        assert_eq!(c.take_ensures(), [("b!".to_string(), at(2))]);
        assert_eq!(c.clauses().count(), 0);
    }

    #[test]
    fn barrier_invariants_wait_for_the_next_barrier() {
        let mut c = Clauses::default();
        c.await_barrier("invariant {:instantiate 0bv32} p;".into(), at(4));
        c.await_barrier("invariant {:instantiate 1bv32} q;".into(), at(5));
        assert_eq!(
            c.take_barrier_invariants(),
            ["invariant {:instantiate 0bv32} p;", "invariant {:instantiate 1bv32} q;"]
        );
        assert!(c.take_barrier_invariants().is_empty());
        c.await_barrier("invariant {:instantiate 2bv32} r;".into(), at(9));
        assert_eq!(c.unmatched_barrier_invariants(), [at(9)]);
        assert!(c.unmatched_barrier_invariants().is_empty());
    }

    #[test]
    fn a_fold_has_a_budget_that_each_clause_renews() {
        let mut c = Clauses::default();
        assert!(!c.take_fold(), "no budget outside a fold");
        assert!(!c.in_spec());
        let outer = c.begin_fold();
        assert!(!outer && c.in_spec());
        assert_eq!((0..FOLD_BUDGET + 10).filter(|_| c.take_fold()).count(), FOLD_BUDGET);
        // A fold begun inside another (a clause of an inlined call) renews the budget and
        // leaves the outer one a specification still.
        let inner = c.begin_fold();
        assert!(inner && c.take_fold());
        c.end_fold(inner);
        assert!(c.in_spec());
        c.end_fold(outer);
        assert!(!c.in_spec());
    }
}
