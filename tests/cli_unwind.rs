//! `kivl verify --loop-unwind N` and `--findbugs` (GPUVerify's bounded checking, issue 22):
//! errors within N loop iterations are found and are real (exit 1); a run without errors is
//! `bounded` (exit 3, "no errors found within N loop iterations"), never verified. Each
//! program has a correct twin.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kivl-cli-unwind-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `kivl verify --format json ARGS FILE`, exactly these arguments.
fn verify(file: &Path, args: &[&str]) -> Run {
    let mut a = vec!["verify", "--format", "json"];
    a.extend_from_slice(args);
    a.push(file.to_str().unwrap());
    kivl(&a)
}

/// The human output and exit status of `kivl verify ARGS FILE`.
fn verify_human(file: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kivl")).arg("verify").args(args).arg(file).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn assert_bounded(run: &Run, depth: u64) {
    assert_eq!((run.code, run.verdict()), (3, "bounded"), "{:?}", run.json);
    assert_eq!(run.file()["verified"], 0, "{:?}", run.json);
    assert_eq!(run.file()["loop_unwind"], depth);
    assert_eq!(run.json["counts"]["verified"], 0);
    for imp in run.file()["implementations"].as_array().unwrap() {
        assert_eq!(imp["outcome"], "bounded", "{:?}", run.json);
    }
}

/// The assertion fails in the third iteration (i == 2).
const ITER3_BUG: &str =
    "procedure p() {\n  var i: int;\n  i := 0;\n  while (i < 10) {\n    assert i != 2;\n    i := i + 1;\n  }\n}\n";
const ITER3_OK: &str =
    "procedure p() {\n  var i: int;\n  i := 0;\n  while (i < 10) {\n    assert i != 20;\n    i := i + 1;\n  }\n}\n";

#[test]
fn a_boogie_assertion_failing_in_iteration_3_is_found_with_three_unwindings() {
    let bug = temp_file("iter3_bug.bpl", ITER3_BUG);
    for n in ["1", "2"] {
        let run = verify(&bug, &["--loop-unwind", n]);
        assert_bounded(&run, n.parse().unwrap());
    }
    let run = verify(&bug, &["--loop-unwind", "3"]);
    assert_eq!((run.code, run.verdict()), (1, "errors"), "{:?}", run.json);
    assert_eq!(run.error_summary(), vec![("assertion".to_string(), 5)]);
    assert_eq!(run.file()["verified"], 0);
    // The correct twin: no error within 12 iterations, still not a proof.
    let ok = temp_file("iter3_ok.bpl", ITER3_OK);
    assert_bounded(&verify(&ok, &["--loop-unwind", "12"]), 12);
    let (code, text) = verify_human(&ok, &["--loop-unwind", "12"]);
    assert_eq!(code, 3, "{text}");
    assert!(text.contains("`p`: no errors found within 12 loop iterations (--loop-unwind 12): not a proof"), "{text}");
    assert!(
        text.contains("kivl finished with 0 verified, 0 errors, 1 bounded: no errors found within 12 loop iterations (--loop-unwind 12): not a proof"),
        "{text}"
    );
    assert!(!text.contains(" 1 verified"), "{text}");
    // Without the option the same program is verified (its loop is cut as usual).
    assert_eq!(verify(&ok, &[]).code, 0);
}

#[test]
fn a_false_invariant_is_checked_in_the_unwound_copies() {
    let text = "procedure p() {\n  var i: int;\n  i := 0;\n  while (i < 10)\n    invariant i < N;\n  {\n    i := i + 1;\n  }\n}\n";
    // The invariant i < 2 holds on entry and after one iteration, fails after the second
    // (checked where the loop head is reached again, before the loop may exit).
    let bug = temp_file("inv_bug.bpl", &text.replace("N", "2"));
    assert_bounded(&verify(&bug, &["--loop-unwind", "1"]), 1);
    let run = verify(&bug, &["--loop-unwind", "2"]);
    assert_eq!((run.code, run.verdict()), (1, "errors"), "{:?}", run.json);
    assert_eq!(run.errors().len(), 1, "{:?}", run.json);
    let ok = temp_file("inv_ok.bpl", &text.replace("N", "11"));
    assert_bounded(&verify(&ok, &["--loop-unwind", "20"]), 20);
}

/// A write-write race on `a[0]` in the loop's second iteration only; the twin writes
/// `a[tid]`.
const RACE2: &str = "__kernel void k(__global int *a) {\n  for (int i = 0; i < 4; i++) {\n    if (i == 1) {\n      a[INDEX] = get_local_id(0);\n    }\n    barrier(CLK_GLOBAL_MEM_FENCE);\n  }\n}\n";

#[test]
fn a_race_in_the_second_iteration_needs_two_unwindings() {
    let sizes = ["--local-size", "4", "--num-groups", "2"];
    let race = temp_file("race2.cl", &RACE2.replace("INDEX", "0"));
    let one = verify(&race, &[&sizes[..], &["--loop-unwind", "1"]].concat());
    assert_bounded(&one, 1);
    let two = verify(&race, &[&sizes[..], &["--loop-unwind", "2"]].concat());
    assert_eq!((two.code, two.verdict()), (1, "errors"), "{:?}", two.json);
    assert!(two.errors().iter().all(|e| e["kind"] == "race"), "{:?}", two.json);
    assert!(two.error_summary().iter().any(|(_, line)| *line == 4), "{:?}", two.error_summary());
    // No hint that inference is off: these errors are real.
    assert!(!two.json.to_string().contains("--no-infer"), "{:?}", two.json);
    let ok = temp_file("norace2.cl", &RACE2.replace("INDEX", "get_global_id(0)"));
    let run = verify(&ok, &[&sizes[..], &["--loop-unwind", "3"]].concat());
    assert_bounded(&run, 3);
    let (code, text) = verify_human(&ok, &[&sizes[..], &["--loop-unwind", "3"]].concat());
    assert_eq!(code, 3, "{text}");
    assert!(text.contains("no errors found within 3 loop iterations (--loop-unwind 3): not a proof"), "{text}");
}

#[test]
fn findbugs_unwinds_twice_on_a_frontend_kernel() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/frontend");
    let sizes = ["--local-size", "64", "--num-groups", "4", "--findbugs"];
    let ok = verify(&dir.join("reduce.cl"), &sizes);
    assert_bounded(&ok, 2);
    assert!(ok.file().get("inference").is_none() && ok.file().get("houdini").is_none(), "{:?}", ok.json);
    let race = verify(&dir.join("reduce_race.cl"), &sizes);
    assert_eq!((race.code, race.verdict()), (1, "errors"), "{:?}", race.json);
    assert!(race.errors().iter().any(|e| e["kind"] == "race"), "{:?}", race.json);
}

#[test]
fn loop_unwind_conflicts_with_proof_options() {
    let ok = temp_file("conflict.bpl", ITER3_OK);
    for extra in [&["--houdini"][..], &["--termination"], &["--lockstep", "2"], &["--findbugs"]] {
        let run = verify(&ok, &[&["--loop-unwind", "2"][..], extra].concat());
        assert_eq!(run.code, 2, "{extra:?}: {}", run.stderr);
        assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
    }
    assert_eq!(verify(&ok, &["--loop-unwind", "0"]).code, 2);
    assert_eq!(verify(&ok, &["--findbugs", "--houdini"]).code, 2);
}

#[test]
fn nested_loops_need_the_depth_in_each_loop() {
    // Fails in the outer loop's 2nd iteration, inner loop's 2nd iteration; the inner loop
    // runs twice and exits (after its 2nd iteration, within the bound).
    let text = "procedure p() {\n  var i, j: int;\n  i := 0;\n  while (i < 5) {\n    j := 0;\n    while (j < 2) {\n      assert !(i == 1 && j == 1);\n      j := j + 1;\n    }\n    i := i + 1;\n  }\n}\n";
    let bug = temp_file("nested_bug.bpl", text);
    assert_bounded(&verify(&bug, &["--loop-unwind", "1"]), 1);
    let run = verify(&bug, &["--loop-unwind", "2"]);
    assert_eq!((run.code, run.verdict()), (1, "errors"), "{:?}", run.json);
    assert_eq!(run.error_summary(), vec![("assertion".to_string(), 7)]);
    let ok = temp_file("nested_ok.bpl", &text.replace("j == 1", "j == 7"));
    assert_bounded(&verify(&ok, &["--loop-unwind", "6"]), 6);
    // With an inner loop of 5 iterations, the outer loop's 2nd iteration is out of reach.
    let long = temp_file("nested_long.bpl", &text.replace("j < 2", "j < 5"));
    assert_bounded(&verify(&long, &["--loop-unwind", "2"]), 2);
}

#[test]
fn junit_reports_a_bounded_implementation_as_skipped() {
    let ok = temp_file("junit_ok.bpl", ITER3_OK);
    let out = Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(["verify", "--format", "junit", "--loop-unwind", "2"])
        .arg(&ok)
        .output()
        .unwrap();
    let xml = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{xml}");
    assert!(
        xml.contains("<skipped message=\"no errors found within 2 loop iterations (--loop-unwind 2): not a proof\"/>"),
        "{xml}"
    );
}
