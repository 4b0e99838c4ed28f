//! The report does not depend on the number of solver threads (issue 23, "same result on every
//! machine"): on the GPUVerify-generated corpus files where `kivl verify --houdini` gave other
//! verified counts or errors with `--jobs 1` and `--jobs 2` (when a worker's one Z3 context held
//! every implementation it had checked, and Z3's time limit was reset between checks to the
//! time left), both runs now give the same JSON report, timings aside, with no resource limit
//! reached, and `--error-limit 1` gives the same outcomes as the default 5 (only fewer errors).
//! `scripts/jobs-determinism.py` runs the
//! same comparison over the whole corpus. Skipped (with a message) unless `KIVL_CORPUS` names a
//! checkout of github.com/symbooglix/gpu (`ivl::corpus`).

mod common;

use serde_json::Value;
use std::path::Path;

/// Corpus files (relative to `KIVL_CORPUS`) whose reports differed between `--jobs 1` and 2
/// (the verified count on the first two, the number of Houdini checks on the third): the
/// corpus's only GPUVerify-generated files with more than one implementation to verify.
const DIFFERED: &[&str] = &[
    "gpuverify/CUDA50/6_Advanced/FunctionPointers/SobelShared.bpl",
    "gpuverify/CUDA50/6_Advanced/FunctionPointers/SobelTex.bpl",
    "gpuverify/CUDA50/0_Simple/simpleSeparateCompilation/simpleSeparateCompilation.bpl",
];

/// The JSON report of `kivl verify --houdini` with `jobs` threads, without its timings.
fn report(file: &Path, jobs: usize) -> Value {
    report_with(file, jobs, &[])
}

/// [`report`] with further arguments.
fn report_with(file: &Path, jobs: usize, args: &[&str]) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(["verify", "--houdini", "--format", "json", "--timeout", "120", "--jobs", &jobs.to_string()])
        .args(args)
        .arg(file)
        .output()
        .unwrap();
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{}: no JSON report ({e}): {}", file.display(), String::from_utf8_lossy(&out.stderr))
    });
    strip_times(&mut v);
    v
}

fn strip_times(v: &mut Value) {
    match v {
        Value::Object(m) => {
            // Timings: `time_s` (Houdini's) and `time_ms` (the run's, the file's and each
            // implementation's, since JSON schema 1.3).
            m.remove("time_s");
            m.remove("time_ms");
            m.values_mut().for_each(strip_times);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_times),
        _ => {}
    }
}

#[test]
fn reports_do_not_depend_on_jobs_on_the_corpus_files_that_differed() {
    let Some(root) = ivl::corpus::gpu() else { return };
    for rel in DIFFERED {
        let file = root.join(rel);
        let one = report(&file, 1);
        let text = one.to_string();
        for limit in ["time limit reached", "memory limit"] {
            assert!(!text.contains(limit), "{rel}: a resource limit was reached: {text}");
        }
        let f = &one["files"][0];
        let outcomes: Vec<&str> =
            f["implementations"].as_array().unwrap().iter().map(|i| i["outcome"].as_str().unwrap()).collect();
        assert!(outcomes.len() > 1, "{rel}: several implementations expected, got {outcomes:?}");
        for jobs in [2, 3] {
            assert_eq!(one, report(&file, jobs), "{rel}: --jobs 1 and --jobs {jobs} differ");
        }
        // SobelShared's verified count also differed between `--error-limit 5` and 1.
        let limited = report_with(&file, 1, &["--error-limit", "1"]);
        assert_eq!(impl_outcomes(&one), impl_outcomes(&limited), "{rel}: --error-limit 5 and 1 differ");
    }
}

/// The verified count and each implementation's outcome: what the error limit must not change
/// (only how many errors are reported).
fn impl_outcomes(report: &Value) -> (Value, Vec<(Value, Value)>) {
    let f = &report["files"][0];
    let impls = f["implementations"].as_array().unwrap().iter().map(|i| (i["name"].clone(), i["outcome"].clone()));
    (f["verified"].clone(), impls.collect())
}

/// Files with two Houdini searches, which run side by side from two threads on
/// (`gpu-passes/src/driver/speculate.rs`): kernels whose first search, without the modular
/// candidates, does not verify, GPUVerify `.bpl` files that need kivl's strided candidates, and
/// a kernel whose first search verifies, so that the second is cancelled (its solver checks
/// must not show in the report's `solver_checks`). Each with its arguments and verdict; each
/// buggy file has its correct twin.
const TWO_SEARCHES: &[(&str, &[&str], &str)] = &[
    ("tests/kernels/access_strided.kbpl", &["--local-size", "64", "--num-groups", "4"], "verified"),
    ("tests/kernels/access_strided_race.kbpl", &["--local-size", "64", "--num-groups", "4"], "errors"),
    ("tests/kernels/grid_stride.kbpl", &["--local-size", "16", "--num-groups", "4"], "verified"),
    ("tests/kernels/grid_stride_race.kbpl", &["--local-size", "16", "--num-groups", "4"], "errors"),
    ("tests/gpuverify_bpl/strided.bpl", &[], "verified"),
    ("tests/gpuverify_bpl/strided_race.bpl", &[], "errors"),
];

#[test]
fn reports_do_not_depend_on_jobs_where_two_searches_run_side_by_side() {
    for (rel, args, verdict) in TWO_SEARCHES {
        let file = common::repo_dir(rel);
        let one = report_with(&file, 1, args);
        assert_eq!(one["files"][0]["verdict"], *verdict, "{rel}: {one}");
        for jobs in [2, 4] {
            assert_eq!(one, report_with(&file, jobs, args), "{rel}: --jobs 1 and --jobs {jobs} differ");
        }
        let limited = report_with(&file, 2, &[*args, &["--error-limit", "1"]].concat());
        assert_eq!(impl_outcomes(&one), impl_outcomes(&limited), "{rel}: --error-limit 5 and 1 differ");
    }
}
