//! The inference report (`--infer-info`): counts per rule, inferred invariants per loop, and for
//! a failed proof the loop where it failed with the candidates that did not survive there.

mod invariants_common;

use gpu_passes::driver::verify_with_inference;
use gpu_passes::invariants::report::Status;
use gpu_passes::invariants::*;
use invariants_common::*;

fn report_of(name: &str, strip: bool) -> (vcgen::engine::ProgramResult, InferenceReport) {
    let (_, args) = header(name);
    let p = load(name);
    let p = if strip { strip_loop_invariants(&p) } else { p };
    let (r, rep) = verify_with_inference(&p, &kernel_options(&args), &verify_options(), true);
    let mut rep = rep.expect("asked for");
    let text = std::fs::read_to_string(kernels_dir().join(format!("{name}.kbpl"))).unwrap();
    rep.set_source(&ivl::diag::SourceFile::new(name, text));
    (r, rep)
}

#[test]
fn no_report_unless_asked() {
    let (_, args) = header("access_offset_infer");
    let (_, rep) =
        verify_with_inference(&load("access_offset_infer"), &kernel_options(&args), &verify_options(), false);
    assert!(rep.is_none());
}

#[test]
fn verified_kernel_report_lists_inferred_invariants_per_loop() {
    let (r, rep) = report_of("access_offset_infer", false);
    assert!(verified(&r) && rep.verified);
    assert_eq!(rep.loops.len(), 1);
    assert_eq!(rep.loops[0].line, Some(15));
    assert!(rep.failing.is_empty());
    let kept: Vec<&str> = rep.candidates.iter().filter(|c| c.status == Status::Kept).map(|c| c.text.as_str()).collect();
    assert!(kept.contains(&"__write(A) ==> __write_offset(A) - 1 == local_id_x"), "{kept:?}");
    // Per-rule counts add up.
    let total: usize = rep.per_rule.iter().map(|c| c.generated).sum();
    assert_eq!(total, rep.generated());
    assert_eq!(rep.per_rule.iter().map(|c| c.kept).sum::<usize>(), rep.kept());
    let text = infer_info_text(&rep);
    assert!(
        text.starts_with(&format!(
            "invariant inference: {} candidates generated, {} kept",
            rep.generated(),
            rep.kept()
        )),
        "{text}"
    );
    assert!(text.contains("loop at line 15 in `offset_loop`"), "{text}");
    assert!(
        text.contains("    invariant __write(A) ==> __write_offset(A) - 1 == local_id_x;  // access-offset"),
        "{text}"
    );
    assert!(!text.contains("verification failed"), "{text}");
}

#[test]
fn failed_proof_points_at_the_loop_and_its_dropped_candidates() {
    // The race twin: the offset is the loop counter, so the offset candidate cannot survive.
    let (r, rep) = report_of("access_offset_infer_race", false);
    assert!(!verified(&r) && !rep.verified);
    assert_eq!(rep.failing.len(), 1, "{:?}", rep.failing);
    let f = &rep.failing[0];
    assert_eq!(f.loop_index, 0);
    assert!(f.errors.iter().any(|e| e.starts_with("race:")), "{:?}", f.errors);
    let dropped: Vec<&str> = f.dropped.iter().filter_map(|id| rep.candidate(*id)).map(|c| c.text.as_str()).collect();
    assert!(!dropped.is_empty());
    for id in &f.dropped {
        let c = rep.candidate(*id).unwrap();
        assert!(matches!(c.status, Status::Dropped | Status::KilledByRun | Status::PartlyKept), "{c:?}");
        assert_eq!(c.loop_index, Some(0));
    }
    let text = infer_info_text(&rep);
    assert!(text.contains("verification failed at the loop at line 14 in `offset_loop`:"), "{text}");
    assert!(text.contains("candidates that did not survive there"), "{text}");
    let json = infer_info_json(&rep);
    assert_eq!(json["verified"], false);
    assert_eq!(json["failing_loops"][0]["loop"], 0);
    assert_eq!(json["loops"][0]["line"], 14);
    assert_eq!(json["generated"].as_u64().unwrap() as usize, rep.generated());
    let statuses: Vec<&str> =
        json["candidates"].as_array().unwrap().iter().map(|c| c["status"].as_str().unwrap()).collect();
    assert!(statuses.iter().all(|s| ["kept", "partly-kept", "dropped", "killed-by-run", "not-checked"].contains(s)));
}

#[test]
fn killed_candidates_are_reported_as_such() {
    let (_, rep) = report_of("reduce_pow2_bv_infer", false);
    let killed: Vec<&str> =
        rep.candidates.iter().filter(|c| c.status == Status::KilledByRun).map(|c| c.text.as_str()).collect();
    // i is 64 at the last head visit: the bounds below 64 are refuted by any run.
    assert!(killed.contains(&"BV32_ULT(i, 1bv32)") && killed.contains(&"BV32_ULT(i, 64bv32)"), "{killed:?}");
    assert_eq!(rep.killed_by_run(), killed.len());
    assert!(rep.dynamic_runs > 0);
    let json = infer_info_json(&rep);
    assert_eq!(json["killed_by_run"].as_u64().unwrap() as usize, killed.len());
}
