//! Disjoint shares of one implementation's goals (`--split-vc`, issue 23): with several solvers
//! on one implementation, each checks its own share of the assertions and assumes the others
//! (Houdini's candidates are assumed by every share alike). The shares are dealt *by
//! candidate*: every assertion `b ==> φ` guarded by the same candidate `b` (a candidate loop
//! invariant is asserted at the loop's entry and at the end of its body) goes to the same
//! share, so that one candidate is refuted by one solver only and the solvers do not repeat
//! each other's refutations; the candidates are dealt out in the order they are first asserted
//! (GPUVerify puts dozens in a row at each loop head), the assertions no candidate guards in
//! their own order.
//!
//! Why disjoint shares are sound (see also [`super::check`]): a failure found by a share is a
//! real failure of the VC (an execution in which every earlier assertion holds and this one
//! fails; assuming the other shares' assertions only removes executions), and when every share
//! holds under one assignment, every assertion does (the first failing assertion of any
//! execution belongs to some share, which would find it).

use crate::HashMap;
use ivl::ast::Name;

/// The share (of `shares`) of each assertion, given each assertion's candidate guard.
pub fn deal<'a>(guards: impl IntoIterator<Item = Option<&'a Name>>, shares: usize) -> Vec<usize> {
    let shares = shares.max(1);
    let mut of_candidate: HashMap<&Name, usize> = HashMap::default();
    let mut unguarded = 0;
    guards
        .into_iter()
        .map(|g| match g {
            Some(g) => {
                let next = of_candidate.len();
                *of_candidate.entry(g).or_insert(next) % shares
            }
            None => {
                unguarded += 1;
                (unguarded - 1) % shares
            }
        })
        .collect()
}

/// The assertions of share `share` (of `shares`), in order ([`deal`]).
pub fn share_of<'a>(guards: impl IntoIterator<Item = Option<&'a Name>>, shares: usize, share: usize) -> Vec<usize> {
    deal(guards, shares).into_iter().enumerate().filter(|&(_, s)| s == share).map(|(k, _)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidates_assertions_stay_together() {
        let (a, b, c) = (Name::from("a"), Name::from("b"), Name::from("c"));
        // Entry checks of a, b, c, an unguarded assertion, the step checks of a, b, c, another.
        let guards = [Some(&a), Some(&b), Some(&c), None, Some(&a), Some(&b), Some(&c), None];
        assert_eq!(deal(guards, 2), vec![0, 1, 0, 0, 0, 1, 0, 1]);
        assert_eq!(share_of(guards, 2, 1), vec![1, 5, 7]);
        assert_eq!(deal(guards, 1), vec![0; 8]);
        let all: Vec<usize> = (0..3).flat_map(|s| share_of(guards, 3, s)).collect();
        assert_eq!(all.len(), guards.len(), "every assertion in exactly one share");
    }
}
