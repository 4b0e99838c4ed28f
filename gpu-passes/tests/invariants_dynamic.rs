//! Dynamic candidate killing (`gpu_passes::invariants::dynamic`): concrete runs only drop
//! candidates that Houdini drops too, skip the candidates whose concrete meaning differs, and
//! work with fixed and with symbolic sizes.

mod invariants_common;

use gpu_passes::driver::{verify_with_inference, verify_with_inference_opts, InferOptions};
use gpu_passes::invariants::report::Status;
use gpu_passes::invariants::*;
use invariants_common::*;

/// The program `verify_with_inference` gives the reduction, before dynamic killing.
fn with_candidates(name: &str) -> (ivl::ast::Program, CandidateInfo, gpu_passes::two_thread::KernelOptions) {
    let (_, args) = header(name);
    let kopts = kernel_options(&args);
    let g = gen_options(&kopts);
    let p = literal_sizes(&strip_loop_invariants(&load(name)), &g.sizes);
    let (q, info) = add_candidates_with(&p, &g);
    (q, info, kopts)
}

#[test]
fn runs_never_kill_a_candidate_houdini_keeps() {
    for name in [
        "access_strided_infer",
        "histogram",
        "reduce_pow2_bv_infer",
        "infer_pow2",
        "infer_guarded",
        "scan_blelloch",
        "reduce_tree_goto",
        "infer_bound_bv",
        "matmul_tiled",
        "infer_equal",
    ] {
        let (q, info, kopts) = with_candidates(name);
        let d = dynamic::kill(&q, &info, &kopts, &dynamic::DynamicOptions::default());
        assert!(d.skipped.is_none(), "{name}: {:?}", d.skipped);
        assert!(d.useful_runs > 0, "{name}: no run completed");
        // Houdini alone, on the same candidates.
        let (_, args) = header(name);
        let iopts = InferOptions { dynamic: false, ..InferOptions::default() };
        let p = strip_loop_invariants(&load(name));
        let (_, rep) = verify_with_inference_opts(&p, &kernel_options(&args), &verify_options(), true, &iopts);
        let rep = rep.unwrap();
        for id in &d.killed {
            let c = rep.candidate(*id).unwrap();
            assert!(
                !matches!(c.status, Status::Kept | Status::PartlyKept),
                "{name}: a run refuted `{}` ({}), which Houdini proves",
                c.text,
                c.rule
            );
        }
    }
}

#[test]
fn only_candidates_with_the_same_concrete_meaning_are_run() {
    let (q, info, kopts) = with_candidates("reduce_tree_infer");
    let d = dynamic::kill(&q, &info, &kopts, &dynamic::DynamicOptions::default());
    let with_builtin = |id: &usize, b: &str| info.by_id(*id).unwrap().text.contains(b);
    assert!(d.killed.iter().all(|id| !with_builtin(id, "__enabled") && !with_builtin(id, "__other")));
    let not_run = info.candidates.iter().filter(|c| c.text.contains("__enabled") || c.text.contains("__other")).count();
    assert!(not_run > 0 && d.evaluated + not_run <= info.candidates.len(), "{d:?}");
    // Symbolic sizes: the kernel runs with a small group anyway.
    assert!(kopts.local_size.is_none() && d.useful_runs > 0, "{d:?}");
    // `s` halves down to 0: the bound `s <= 0` and `s > 0` cannot survive a run.
    let killed: Vec<&str> = d.killed.iter().map(|id| info.by_id(*id).unwrap().text.as_str()).collect();
    assert!(killed.contains(&"s > 0"), "{killed:?}");
}

#[test]
fn uniformity_is_not_judged_across_groups() {
    // The bound depends on the group: uniform within a group, not across groups.
    let p = parse_checked(
        "var {:group_shared} A: [int]int;\n\
         procedure {:kernel} k() { var i: int; i := 0; while (i < group_id_x) { A[local_id_x] := i; barrier; i := i + 1; } }",
    );
    let kopts = gpu_passes::two_thread::KernelOptions {
        local_size: Some(vec![4]),
        num_groups: Some(vec![3]),
        ..Default::default()
    };
    let (q, info) = add_candidates_with(&p, &gen_options(&kopts));
    let d = dynamic::kill(&q, &info, &kopts, &dynamic::DynamicOptions::default());
    let uniform = info.candidates.iter().find(|c| c.text == "__uniform(i)").expect("candidate");
    assert!(!d.killed.contains(&uniform.id), "{d:?}");
    let (r, rep) = verify_with_inference(&p, &kopts, &verify_options(), true);
    assert!(verified(&r), "{}", describe(&r));
    assert!(matches!(rep.unwrap().candidate(uniform.id).unwrap().status, Status::Kept | Status::PartlyKept));
}

#[test]
fn kernels_the_interpreter_cannot_run_lose_no_candidate() {
    // `__other` in a user invariant cannot be run concretely.
    let p = parse_checked(
        "var {:group_shared} A: [int]int;\n\
         procedure {:kernel} k(n: int) { var i: int; i := 0;\n\
         while (i < n) invariant __other(i) == i || true; { A[local_id_x] := i; i := i + 1; } }",
    );
    let kopts = gpu_passes::two_thread::KernelOptions { local_size: Some(vec![8]), ..Default::default() };
    let (q, info) = add_candidates_with(&p, &gen_options(&kopts));
    let d = dynamic::kill(&q, &info, &kopts, &dynamic::DynamicOptions::default());
    assert!(d.skipped.is_some() && d.killed.is_empty(), "{d:?}");
}
