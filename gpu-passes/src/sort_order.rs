//! The *sort order* of seed 000 §4 (Collingbourne et al., "Interleaving and Lock-Step Semantics
//! for Analysis and Verification of GPU Kernels", "Sort Order"): the total order on the blocks of
//! a reducible CFG in which predication (§4.1, Table 2) lays out the predicated blocks.
//!
//! The paper requires two conditions of the order `≤`:
//! 1. if there is a path from `B` to `C` without a back edge, then `B ≤ C`;
//! 2. every loop is contiguous: if `B ≤ C ≤ D` and `B, D ∈ L`, then `C ∈ L`.
//!
//! The order itself is computed by [`ivl::cfg::Cfg::sort_order`] exactly as the paper describes
//! (innermost loops collapsed into abstract blocks, each level topologically sorted, abstract
//! blocks expanded in place), next to the dominators and natural loops it needs. This module is
//! the §4 view of it that predication uses — `next(B)`, the block sorted last in each loop — and
//! the checker of both conditions, run as a debug assertion on every order built here and by the
//! property tests (`tests/sort_order_props.rs`). Irreducible CFGs are rejected with the
//! diagnostic of [`ivl::cfg::Cfg::check_reducible`].

use ivl::cfg::Cfg;
use ivl::diag::Diagnostic;
use std::collections::HashSet;

/// The sort order of the blocks reachable from the entry, with what Table 2 needs of it.
#[derive(Clone, Debug)]
pub struct SortOrder {
    /// The reachable blocks, in sort order; `order[0]` is the entry.
    pub order: Vec<usize>,
    /// Per block, its index in `order` (`None` for unreachable blocks).
    pub position: Vec<Option<usize>>,
    /// Per loop of [`Cfg::loops`], the block sorted last among its blocks.
    pub last: Vec<usize>,
}

impl SortOrder {
    /// The sort order of a CFG; an `unsupported` diagnostic if the CFG is irreducible.
    pub fn of(cfg: &Cfg) -> Result<SortOrder, Diagnostic> {
        cfg.check_reducible()?;
        let order = cfg.sort_order();
        let mut position = vec![None; cfg.len()];
        for (p, &b) in order.iter().enumerate() {
            position[b] = Some(p);
        }
        let last = cfg
            .loops()
            .iter()
            .map(|lp| *lp.body.iter().max_by_key(|&&b| position[b]).expect("a loop has a header"))
            .collect();
        let so = SortOrder { order, position, last };
        debug_assert_eq!(check_sort_order(cfg, &so.order), Ok(()));
        Ok(so)
    }

    /// `next(B)`: the block after `b` in the order; `None` for the last block (the paper's `End`).
    pub fn next(&self, b: usize) -> Option<usize> {
        self.position[b].and_then(|p| self.order.get(p + 1).copied())
    }

    /// The loops whose last block is `b`, innermost first.
    pub fn loops_ending_at(&self, cfg: &Cfg, b: usize) -> Vec<usize> {
        std::iter::successors(cfg.innermost_loop(b), |&l| cfg.loops()[l].parent)
            .filter(|&l| self.last[l] == b)
            .collect()
    }
}

/// Checks that `order` is a sort order of the reachable blocks of `cfg`: a permutation of them
/// starting at the entry, satisfying both conditions of §4, with each loop's header first among
/// its blocks (which the paper derives from condition 1 and relies on in Table 2). Condition 1
/// is checked edge by edge: paths follow by transitivity.
pub fn check_sort_order(cfg: &Cfg, order: &[usize]) -> Result<(), String> {
    let n = cfg.len();
    let mut position = vec![None; n];
    for (p, &b) in order.iter().enumerate() {
        if b >= n || !cfg.is_reachable(b) || position[b].replace(p).is_some() {
            return Err(format!("block {b} is unreachable, unknown or listed twice"));
        }
    }
    let reachable = (0..n).filter(|&b| cfg.is_reachable(b)).count();
    if order.len() != reachable || order.first() != Some(&cfg.entry()) && n > 0 {
        return Err(format!(
            "order lists {} of {} reachable blocks, starting at {:?}",
            order.len(),
            reachable,
            order.first()
        ));
    }
    let back: HashSet<(usize, usize)> = cfg.back_edges().iter().copied().collect();
    for &a in order {
        for &b in cfg.successors(a) {
            if !back.contains(&(a, b)) && position[a] >= position[b] {
                return Err(format!("condition 1: the edge {a} -> {b} is not a back edge but goes backwards"));
            }
        }
    }
    for lp in cfg.loops() {
        let ps: Vec<usize> = lp.body.iter().filter_map(|&b| position[b]).collect();
        let (lo, hi) = (ps.iter().min().copied().unwrap_or(0), ps.iter().max().copied().unwrap_or(0));
        if hi + 1 - lo != ps.len() {
            return Err(format!("condition 2: the loop headed by block {} is not contiguous", lp.header));
        }
        if position[lp.header] != Some(lo) {
            return Err(format!("the header {} is not first in its loop", lp.header));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(succs: Vec<Vec<usize>>) -> Cfg {
        Cfg::from_successors(succs, None)
    }

    /// Fig. 3 of seed 000: Start, W, I1, I1', B1, I2, I2', B2, Wlast, Wend.
    fn fig3() -> Cfg {
        cfg(vec![vec![1, 9], vec![2, 3], vec![4], vec![4], vec![5, 6], vec![7], vec![7], vec![8], vec![1, 9], vec![]])
    }

    #[test]
    fn fig3_order_satisfies_section_4() {
        let c = fig3();
        let so = SortOrder::of(&c).unwrap();
        assert_eq!(check_sort_order(&c, &so.order), Ok(()));
        assert_eq!(so.order[..2], [0, 1]);
        assert_eq!(so.order[8..], [8, 9], "Wlast is last in the loop, Wend last overall");
        assert_eq!(so.loops_ending_at(&c, 8), vec![0]);
        assert_eq!(so.next(8), Some(9));
        assert_eq!(so.next(9), None);
    }

    #[test]
    fn checker_rejects_bad_orders() {
        let c = fig3();
        // Wend inside the loop's range: not contiguous.
        assert!(check_sort_order(&c, &[0, 1, 2, 3, 4, 5, 6, 9, 7, 8]).is_err());
        // B1 before I1: a forward edge goes backwards.
        assert!(check_sort_order(&c, &[0, 1, 4, 2, 3, 5, 6, 7, 8, 9]).is_err());
        // Missing block.
        assert!(check_sort_order(&c, &[0, 1, 2, 3, 4, 5, 6, 7, 8]).is_err());
        assert_eq!(check_sort_order(&c, &[0, 1, 3, 2, 4, 6, 5, 7, 8, 9]), Ok(()), "the paper's allowed swap");
    }

    #[test]
    fn irreducible_is_rejected() {
        let c = cfg(vec![vec![1, 2], vec![2], vec![1]]);
        let d = SortOrder::of(&c).unwrap_err();
        assert_eq!(d.kind, ivl::diag::ErrorKind::Unsupported);
    }

    #[test]
    fn nested_loops_can_share_a_last_block() {
        // 0 -> H2(1) -> H1(2) -> X(3) -> T(4) -> H1; X -> H2; X -> exit(5)
        let c = cfg(vec![vec![1], vec![2], vec![3], vec![4, 1, 5], vec![2], vec![]]);
        let so = SortOrder::of(&c).unwrap();
        assert_eq!(so.order, vec![0, 1, 2, 3, 4, 5]);
        let ending = so.loops_ending_at(&c, 4);
        assert_eq!(ending.len(), 2);
        assert_eq!(c.loops()[ending[0]].header, 2, "innermost first");
    }
}
