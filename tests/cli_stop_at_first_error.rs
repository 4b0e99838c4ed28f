//! `kivl verify --stop-at-first-error` inside a file (issue 22): once an implementation has an
//! error, the implementations after it are not verified (not started, or interrupted) and are
//! reported as such in every format, the same way for `--jobs 1` and `--jobs 2`; the exit
//! status stays 1. Each program has a correct twin, which verifies everything with the flag.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kivl-cli-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `kivl verify ARGS FILE`: exit status, stdout, stderr (`trace`: with `KIVL_TRACE`).
fn verify(file: &Path, args: &[&str], trace: bool) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kivl"));
    cmd.arg("verify").args(args).arg(file);
    if trace {
        cmd.env("KIVL_TRACE", "1");
    }
    let out = cmd.output().expect("running kivl");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn verify_json(file: &Path, args: &[&str]) -> (i32, Value) {
    let mut a = vec!["--format", "json"];
    a.extend_from_slice(args);
    let (code, out, _) = verify(file, &a, false);
    (code, serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}")))
}

/// Each implementation's `(name, outcome)`.
fn outcomes(j: &Value) -> Vec<(String, String)> {
    j["files"][0]["implementations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["name"].as_str().unwrap().to_string(), i["outcome"].as_str().unwrap().to_string()))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

/// Five procedures; `p2` (line 9) and `p5` (line 24) have a postcondition that fails.
const FIVE: &str = "procedure p1(x: int) returns (y: int)
  ensures y == x + 1;
{
  y := x + 1;
}

procedure p2(x: int) returns (y: int)
  ensures y > x;
{
  y := x - 1;
}

procedure p3(x: int) returns (y: int)
  ensures y == 2 * x;
{
  y := x + x;
}

procedure p4(x: int) returns (y: int)
  ensures y >= x;
{
  y := x;
}

procedure p5(x: int) returns (y: int)
  ensures y != x;
{
  y := x;
}
";

/// The correct twin: `p2` and `p5` fixed.
fn five_ok() -> String {
    FIVE.replace("y := x - 1;", "y := x + 1;").replace("ensures y != x;", "ensures y == x;")
}

#[test]
fn the_procedures_after_the_first_error_are_not_verified_with_one_or_two_jobs() {
    let file = temp_file("five.bpl", FIVE);
    for jobs in ["1", "2"] {
        let (code, j) = verify_json(&file, &["--stop-at-first-error", "--jobs", jobs]);
        assert_eq!(code, 1, "jobs {jobs}: {j}");
        assert_eq!(j["files"][0]["verdict"], "errors");
        let expected = [("p1", "verified"), ("p2", "errors"), ("p3", "skipped"), ("p4", "skipped"), ("p5", "skipped")];
        assert_eq!(outcomes(&j), pairs(&expected), "jobs {jobs}");
        // Only p2's error: p5's is not looked for.
        let errors = j["files"][0]["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1, "jobs {jobs}: {j}");
        let lines: Vec<u64> =
            errors[0]["locations"].as_array().unwrap().iter().map(|l| l["line"].as_u64().unwrap()).collect();
        assert_eq!(lines, vec![11, 8], "the return path and the ensures of p2 (jobs {jobs}): {j}");
        assert_eq!(j["files"][0]["skipped_implementations"], serde_json::json!(["p3", "p4", "p5"]));
        assert_eq!(j["files"][0]["verified"], 1);
        assert_eq!(j["counts"]["skipped"], 3);
        assert_eq!(j["counts"]["errors"], 1);
        assert_eq!(j["counts"]["inconclusive"], 0, "not verified is not inconclusive");
        assert_eq!(j["schema_version"], "1.3");

        let (code, out, _) = verify(&file, &["--stop-at-first-error", "--jobs", jobs], false);
        assert_eq!(code, 1);
        assert!(out.contains("`p3`, `p4`, `p5`: not verified: --stop-at-first-error\n"), "{out}");
        assert!(
            out.ends_with("kivl finished with 1 verified, 1 error, 3 not verified (--stop-at-first-error)\n"),
            "{out}"
        );
    }
    // Without the flag both errors are found and p3, p4 verified.
    let (code, j) = verify_json(&file, &["--jobs", "2"]);
    assert_eq!(code, 1);
    let expected = [("p1", "verified"), ("p2", "errors"), ("p3", "verified"), ("p4", "verified"), ("p5", "errors")];
    assert_eq!(outcomes(&j), pairs(&expected));
    assert!(j["files"][0].get("skipped_implementations").is_none());
    assert_eq!(j["counts"]["skipped"], 0);
}

#[test]
fn the_correct_twin_verifies_every_procedure_with_the_flag() {
    let file = temp_file("five_ok.bpl", &five_ok());
    for jobs in ["1", "2"] {
        let (code, j) = verify_json(&file, &["--stop-at-first-error", "--jobs", jobs]);
        assert_eq!(code, 0, "{j}");
        assert_eq!(j["files"][0]["verified"], 5);
        assert!(outcomes(&j).iter().all(|(_, o)| o == "verified"), "{j}");
        assert!(j["files"][0].get("skipped_implementations").is_none());
        let (_, out, _) = verify(&file, &["--stop-at-first-error", "--jobs", jobs], false);
        assert_eq!(out, "kivl finished with 5 verified, 0 errors\n");
    }
}

/// `bad` fails at once; `hard` is Fermat's last theorem for cubes, which Z3 does not prove.
const HARD_AFTER_BAD: &str = "procedure bad(x: int)
{
  assert x > 0;
}

procedure hard(x: int, y: int, z: int)
  requires x > 0 && y > 0 && z > 0;
{
  assert x * x * x + y * y * y != z * z * z;
}
";

/// `--timeout 300` on purpose: with Z3's own timer (its `timeout` parameter), `bad`'s one-line
/// check sometimes waited for `hard`'s timer thread, that is for `hard`'s whole check (Z3
/// 4.8.12's timer pool; kivl now leaves the limit to its watchdog).
#[test]
fn a_check_running_on_another_thread_is_interrupted() {
    let file = temp_file("hard.bpl", HARD_AFTER_BAD);
    // Houdini too: its rounds stop the same way.
    for extra in [&[][..], &["--houdini"][..]] {
        let mut args = vec!["--stop-at-first-error", "--jobs", "2", "--timeout", "300", "--format", "json"];
        args.extend_from_slice(extra);
        let (code, out, trace) = verify(&file, &args, true);
        assert_eq!(code, 1, "{out}");
        let j: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(outcomes(&j), pairs(&[("bad", "errors"), ("hard", "skipped")]), "{extra:?}");
        // `hard` was either never started or interrupted: its check never ran into the limit
        // (`KIVL_TRACE` prints a line per check).
        assert!(!trace.contains("timed out"), "{extra:?}: {trace}");
    }
    // The twin without `bad`'s error: `hard` runs into the time limit (inconclusive).
    let twin = temp_file("hard_ok.bpl", &HARD_AFTER_BAD.replace("assert x > 0;", "assert x == x;"));
    let (code, j) = verify_json(&twin, &["--stop-at-first-error", "--jobs", "2", "--timeout", "1"]);
    assert_eq!(code, 3, "{j}");
    assert_eq!(outcomes(&j), pairs(&[("bad", "verified"), ("hard", "inconclusive")]));
}

/// Three kernels; the first races (every thread writes `A[0]`), the third too.
const KERNELS: &str = "var {:group_shared} A: [int]int;

procedure {:kernel} racy()
{
  A[0] := local_id_x;
}

procedure {:kernel} own()
{
  A[local_id_x] := 1;
}

procedure {:kernel} racy_too()
{
  A[local_id_x + 1] := A[local_id_x];
}
";

const SIZES: [&str; 4] = ["--local-size", "8", "--num-groups", "1"];

#[test]
fn kernels_after_a_racy_kernel_are_not_verified() {
    let file = temp_file("kernels.kbpl", KERNELS);
    for jobs in ["1", "2"] {
        let mut args = vec!["--stop-at-first-error", "--jobs", jobs];
        args.extend(SIZES);
        let (code, j) = verify_json(&file, &args);
        assert_eq!(code, 1, "{j}");
        assert_eq!(outcomes(&j), pairs(&[("racy", "errors"), ("own", "skipped"), ("racy_too", "skipped")]));
        let errors = j["files"][0]["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1, "{j}");
        assert_eq!((errors[0]["kind"].as_str(), errors[0]["locations"][0]["line"].as_u64()), (Some("race"), Some(5)));
    }
    // Without the flag: both races.
    let mut args = vec!["--jobs", "2"];
    args.extend(SIZES);
    let (code, j) = verify_json(&file, &args);
    assert_eq!(code, 1);
    assert_eq!(outcomes(&j), pairs(&[("racy", "errors"), ("own", "verified"), ("racy_too", "errors")]));
    // The twin: every kernel writes its own element.
    let ok = KERNELS
        .replace("A[0] := local_id_x;", "A[local_id_x] := 0;")
        .replace("A[local_id_x + 1] :=", "A[local_id_x] :=");
    let twin = temp_file("kernels_ok.kbpl", &ok);
    let mut args = vec!["--stop-at-first-error", "--jobs", "2"];
    args.extend(SIZES);
    let (code, j) = verify_json(&twin, &args);
    assert_eq!(code, 0, "{j}");
    assert_eq!(outcomes(&j), pairs(&[("racy", "verified"), ("own", "verified"), ("racy_too", "verified")]));
}

#[test]
fn junit_reports_the_procedures_not_verified_as_skipped() {
    let file = temp_file("five_junit.bpl", FIVE);
    let (code, out, _) = verify(&file, &["--stop-at-first-error", "--jobs", "2", "--format", "junit"], false);
    assert_eq!(code, 1);
    let doc = roxmltree::Document::parse(&out).expect("well-formed XML");
    let suite = doc.descendants().find(|n| n.has_tag_name("testsuite")).unwrap();
    assert_eq!(suite.attribute("tests"), Some("5"));
    assert_eq!(suite.attribute("failures"), Some("1"));
    assert_eq!(suite.attribute("skipped"), Some("3"));
    let cases: Vec<(String, &str)> = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|c| {
            let state = if let Some(s) = c.children().find(|n| n.has_tag_name("skipped")) {
                assert_eq!(s.attribute("message"), Some("not verified: --stop-at-first-error"));
                "skipped"
            } else if c.children().any(|n| n.has_tag_name("failure")) {
                "failure"
            } else {
                "passed"
            };
            (c.attribute("name").unwrap().to_string(), state)
        })
        .collect();
    let expected = [("p1", "passed"), ("p2", "failure"), ("p3", "skipped"), ("p4", "skipped"), ("p5", "skipped")];
    assert_eq!(cases, expected.iter().map(|(a, b)| (a.to_string(), *b)).collect::<Vec<_>>());
}

#[test]
fn sarif_lists_the_procedures_not_verified_as_notifications() {
    let file = temp_file("five_sarif.bpl", FIVE);
    let (code, out, _) = verify(&file, &["--stop-at-first-error", "--jobs", "1", "--format", "sarif"], false);
    assert_eq!(code, 1);
    let log: Value = serde_json::from_str(&out).unwrap();
    let run = &log["runs"][0];
    assert_eq!(run["results"].as_array().unwrap().len(), 1, "p2's error only: {out}");
    let notes = run["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
    let texts: Vec<&str> = notes.iter().map(|n| n["message"]["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        [
            "`p3`: not verified: --stop-at-first-error",
            "`p4`: not verified: --stop-at-first-error",
            "`p5`: not verified: --stop-at-first-error"
        ]
    );
    assert!(notes.iter().all(|n| n["level"] == "note"));
    let uri = notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
    assert!(uri.ends_with("five_sarif.bpl"), "{uri}");
    // The twin: nothing left out, no invocation notes.
    let twin = temp_file("five_sarif_ok.bpl", &five_ok());
    let (code, out, _) = verify(&twin, &["--stop-at-first-error", "--format", "sarif"], false);
    assert_eq!(code, 0);
    let log: Value = serde_json::from_str(&out).unwrap();
    assert!(log["runs"][0].get("invocations").is_none(), "{out}");
}
