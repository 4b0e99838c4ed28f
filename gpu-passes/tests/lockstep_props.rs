//! The lock-step construction (seed 000 Table 3) for one thread on generated reducible CFG
//! programs: `φ(π(P))` with `TS = 1` has exactly the outcomes of `P` (Theorem 5.5 composed with
//! the renaming `φ_1`), on concrete inputs with all nondeterminism explored.

mod predication_gen;

use gpu_passes::lockstep::lockstep_program;
use ivl::ast::*;
use predication_gen::{outcomes, random_impl, Store, Val, VARS};
use proptest::prelude::*;

fn as_program(imp: &ivl::blocks::BlockImpl) -> Program {
    let proc = ProcedureDecl {
        attrs: vec![],
        name: imp.name.clone(),
        type_params: vec![],
        ins: vec![],
        outs: vec![],
        contracts: vec![],
        modifies: vec![],
        body: None,
    };
    Program { decls: vec![Decl { kind: DeclKind::Procedure(proc), span: Span::DUMMY }, imp.to_decl()] }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn one_thread_lockstep_preserves_outcomes(seed in any::<u64>(), budget in 1usize..10) {
        let imp = random_impl(seed, budget);
        let lp = lockstep_program(&as_program(&imp), 1).map_err(|d| TestCaseError::fail(format!("{d:?}")))?;
        let limp = ivl::lower::lower_body(lp.implementations().next().unwrap()).unwrap();
        let observe: Vec<Name> = imp.locals.iter().map(|v| v.name.name.clone()).collect();
        let observe1: Vec<Name> = observe.iter().map(|n| Name::from(format!("{n}$1"))).collect();
        for (x, y, z) in [(0, 1, -1), (2, 0, 1)] {
            let mut init = Store::new();
            for v in limp.locals.iter().chain(&imp.locals) {
                init.insert(v.name.name.clone(), Val::Int(0));
            }
            for (n, v) in VARS.iter().zip([x, y, z]) {
                init.insert(Name::from(*n), Val::Int(v));
                init.insert(Name::from(format!("{n}$1")), Val::Int(v));
            }
            let a = outcomes(&imp, &init, &observe, &[], 200_000);
            let b = outcomes(&limp, &init, &observe1, &[], 2_000_000);
            // Same outcomes up to the renaming x -> x$1.
            let rename = |o: &predication_gen::Outcome| match o {
                predication_gen::Outcome::Done(vs) => predication_gen::Outcome::Done(
                    vs.iter().map(|(n, v)| (Name::from(n.trim_end_matches("$1")), v.clone())).collect(),
                ),
                e => e.clone(),
            };
            let b: Vec<_> = b.iter().map(rename).collect();
            prop_assert_eq!(&a, &b, "seed {} budget {}", seed, budget);
        }
    }
}
