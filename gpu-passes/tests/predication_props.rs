//! Theorem 5.5 of seed 000, tested: on generated reducible CFG programs (loops, nested loops,
//! multi-exit loops, `switch` fan-out, short-circuit conditions, early returns) the predicated
//! single-thread program has exactly the outcomes of the original — the same final states and
//! the same assertion failures — on concrete inputs, with every nondeterministic choice
//! explored.

mod predication_gen;

use gpu_passes::predication::predicate_impl;
use gpu_passes::preprocess::{check_preprocessed, preprocess};
use ivl::ast::{Name, Program};
use ivl::cfg::Cfg;
use predication_gen::{outcomes, random_impl, Store, Val, VARS};
use proptest::prelude::*;

fn check_equivalent(seed: u64, budget: usize) -> Result<(), TestCaseError> {
    let imp = random_impl(seed, budget);
    let pred = predicate_impl(&Program { decls: vec![] }, &imp).map_err(|d| TestCaseError::fail(format!("{d:?}")))?;
    // The predicated program has back edges only into loop headers, from the `_back` blocks.
    let pcfg = Cfg::new(&pred.imp);
    for &(from, _) in pcfg.back_edges() {
        prop_assert!(pred.back_of(&pred.imp.blocks[from].label.name).is_some());
    }
    let observe: Vec<Name> = imp.locals.iter().map(|v| v.name.name.clone()).collect();
    let bools: Vec<Name> = vec![];
    for (x, y, z) in [(0, 1, -1), (2, 0, 1)] {
        let mut init = Store::new();
        for v in pred.imp.locals.iter() {
            init.insert(v.name.name.clone(), Val::Int(0));
        }
        for (n, v) in VARS.iter().zip([x, y, z]) {
            init.insert(Name::from(*n), Val::Int(v));
        }
        let a = outcomes(&imp, &init, &observe, &bools, 200_000);
        let b = outcomes(&pred.imp, &init, &observe, &bools, 2_000_000);
        prop_assert_eq!(&a, &b, "seed {} budget {} inputs {:?}", seed, budget, (x, y, z));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1200, ..ProptestConfig::default() })]

    #[test]
    fn predication_preserves_outcomes(seed in any::<u64>(), budget in 1usize..14) {
        check_equivalent(seed, budget)?;
    }

    #[test]
    fn preprocessing_establishes_the_restrictions_and_is_idempotent(seed in any::<u64>(), budget in 1usize..30) {
        let imp = random_impl(seed, budget);
        let once = preprocess(&imp).unwrap();
        prop_assert_eq!(check_preprocessed(&once), Ok(()));
        let twice = preprocess(&once).unwrap();
        prop_assert_eq!(once, twice);
    }
}

/// The generator really produces the shapes the property is about.
#[test]
fn generator_covers_the_shapes() {
    let (mut loops, mut nested, mut multi_exit, mut multi_latch, mut fanout) = (0, 0, 0, 0, 0);
    for seed in 0..300 {
        let imp = random_impl(seed, 13);
        let cfg = Cfg::new(&imp);
        loops += cfg.loops().len();
        nested += cfg.loops().iter().filter(|l| l.parent.is_some()).count();
        multi_exit += cfg.loops().iter().filter(|l| l.exits.len() > 1).count();
        multi_latch += cfg.loops().iter().filter(|l| l.latches.len() > 1).count();
        fanout += (0..cfg.len()).filter(|&b| cfg.successors(b).len() > 2).count();
    }
    assert!(
        loops > 100 && nested > 20 && multi_exit > 20 && multi_latch > 10 && fanout > 20,
        "loops {loops} nested {nested} multi-exit {multi_exit} multi-latch {multi_latch} fan-out {fanout}"
    );
}

/// A program whose assertion fails on some path fails after predication too (and only then).
#[test]
fn predication_keeps_assertion_failures() {
    let mut found = 0;
    for seed in 0..150 {
        let imp = random_impl(seed, 10);
        let pred = predicate_impl(&Program { decls: vec![] }, &imp).unwrap();
        let observe: Vec<Name> = imp.locals.iter().map(|v| v.name.name.clone()).collect();
        let mut init = Store::new();
        for v in pred.imp.locals.iter() {
            init.insert(v.name.name.clone(), Val::Int(0));
        }
        let a = outcomes(&imp, &init, &observe, &[], 200_000);
        let b = outcomes(&pred.imp, &init, &observe, &[], 2_000_000);
        assert_eq!(a, b, "seed {seed}");
        if a.contains(&predication_gen::Outcome::Error) {
            found += 1;
        }
    }
    assert!(found > 5, "only {found} programs with failing assertions");
}
