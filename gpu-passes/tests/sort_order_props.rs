//! Property tests of the sort order (seed 000 §4): on generated reducible CFGs the order
//! respects every forward path and keeps every loop contiguous with its header first.

mod predication_gen;

use gpu_passes::sort_order::{check_sort_order, SortOrder};
use ivl::cfg::Cfg;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Structured shapes: loops, nested and multi-exit loops, switch, short-circuit, returns.
    #[test]
    fn sort_order_of_generated_programs(seed in any::<u64>(), budget in 1usize..40) {
        let imp = predication_gen::random_impl(seed, budget);
        let cfg = Cfg::new(&imp);
        prop_assert!(cfg.is_reducible());
        let so = SortOrder::of(&cfg).expect("reducible");
        prop_assert_eq!(check_sort_order(&cfg, &so.order), Ok(()));
        // Every loop's recorded last block is its last in the order.
        for (l, lp) in cfg.loops().iter().enumerate() {
            let last = lp.body.iter().map(|&b| so.position[b].unwrap()).max().unwrap();
            prop_assert_eq!(so.position[so.last[l]], Some(last));
        }
    }

    /// Arbitrary graphs: whenever the CFG is reducible, the order is a sort order; otherwise
    /// `SortOrder::of` refuses it.
    #[test]
    fn sort_order_of_random_graphs(succs in (1usize..12).prop_flat_map(|n| {
        proptest::collection::vec(proptest::collection::vec(0..n, 0..3), n)
    })) {
        let cfg = Cfg::from_successors(succs, None);
        match SortOrder::of(&cfg) {
            Ok(so) => {
                prop_assert!(cfg.is_reducible());
                prop_assert_eq!(check_sort_order(&cfg, &so.order), Ok(()));
            }
            Err(d) => {
                prop_assert!(!cfg.is_reducible());
                prop_assert_eq!(d.kind, ivl::diag::ErrorKind::Unsupported);
            }
        }
    }
}

/// The loop of a `while` whose body is laid out after the loop's exit in block order still
/// comes out contiguous.
#[test]
fn loop_listed_after_its_exit_is_contiguous() {
    // 0 -> 3 (header) -> 1 -> 3; 3 -> 2 (exit)
    let cfg = Cfg::from_successors(vec![vec![3], vec![3], vec![], vec![1, 2]], None);
    let so = SortOrder::of(&cfg).unwrap();
    assert_eq!(so.order, vec![0, 3, 1, 2]);
}
