//! Counterexamples in kernel terms (issue 5) and `kivl verify --replay` (issue 7), through the
//! command line: reported races, divergences and assertion failures carry the model's thread
//! ids, group ids and race index (human and JSON output), and `--replay` marks every error of
//! the kernel corpus `confirmed` or `possible`.
//!
//! Also the soundness cross-check of `kivl verify` against `kivl run`: a kernel in which a
//! concrete run finds a bug must not verify.

mod common;
use common::*;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kivl-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path).unwrap().write_all(text.as_bytes()).unwrap();
    path
}

fn ids(e: &Value, t: usize, which: &str) -> Vec<u64> {
    e["threads"][t][which]
        .as_array()
        .unwrap_or_else(|| panic!("no {which} in {e}"))
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

fn first_of_kind<'a>(run: &'a Run, kind: &str) -> &'a Value {
    run.errors().into_iter().find(|e| e["kind"] == kind).unwrap_or_else(|| panic!("no {kind} in {}", run.json))
}

const WW: &str = "var {:group_shared} A: [int]int;\naxiom group_size_y == 1 && group_size_z == 1;\n\
                  procedure {:kernel} k()\n{\n  A[local_id_x div 2] := local_id_x;\n}\n";

#[test]
fn a_race_names_both_threads_and_the_index() {
    let p = temp_file("ww.kbpl", WW);
    let run = verify_json(&p, &["--local-size", "8"]);
    assert_eq!(run.code, 1, "{}", run.json);
    let e = first_of_kind(&run, "race");
    assert_eq!(e["race_kind"], "write-write");
    assert_eq!(e["array"], "A");
    let (a, b) = (ids(e, 0, "local_id"), ids(e, 1, "local_id"));
    let index = e["index"].as_u64().expect("a numeric index");
    // The only colliding pairs: threads 2k and 2k+1, both writing A[k].
    assert_ne!(a, b);
    assert_eq!(a[0] / 2, index, "{e}");
    assert_eq!(b[0] / 2, index, "{e}");
    assert!(a[0] < 8 && b[0] < 8);
    assert_eq!(ids(e, 0, "group_id"), ids(e, 1, "group_id"), "one group");
    assert_eq!(e["local_size"], serde_json::json!([8, 1, 1]));
    // The message and labels say the same in words.
    let msg = e["message"].as_str().unwrap();
    assert!(msg.contains(&format!("A[{index}]")), "{msg}");
    assert!(msg.contains(&format!("thread {} of group 0", a[0])), "{msg}");
    let labels: Vec<&str> = e["locations"].as_array().unwrap().iter().map(|l| l["label"].as_str().unwrap()).collect();
    assert!(labels.iter().any(|l| l.contains(&format!("by thread {} of group 0", b[0]))), "{labels:?}");
    // Human output.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(["verify", "--local-size", "8", p.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("counterexample: thread {} of group 0 writes A[{index}]", a[0])), "{text}");
}

#[test]
fn symbolic_sizes_come_from_the_model() {
    let p = temp_file("ww_sym.kbpl", WW);
    let run = verify_json(&p, &[]);
    assert_eq!(run.code, 1);
    let e = first_of_kind(&run, "race");
    let size = e["local_size"][0].as_u64().unwrap();
    let (a, b) = (ids(e, 0, "local_id")[0], ids(e, 1, "local_id")[0]);
    assert!(a < size && b < size && a != b && a / 2 == b / 2, "{e}");
    assert_eq!(e["index"].as_u64().unwrap(), a / 2);
}

#[test]
fn an_inter_group_race_names_two_groups() {
    let text = "var {:global} B: [int]int;\nprocedure {:kernel} k()\n{\n  B[local_id_x] := group_id_x;\n}\n";
    let p = temp_file("inter.kbpl", text);
    let run = verify_json(&p, &["--local-size", "4", "--num-groups", "3"]);
    assert_eq!(run.code, 1, "{}", run.json);
    let e = first_of_kind(&run, "race");
    let (g1, g2) = (ids(e, 0, "group_id"), ids(e, 1, "group_id"));
    assert_ne!(g1, g2, "{e}");
    assert!(g1[0] < 3 && g2[0] < 3);
    let l = ids(e, 0, "local_id");
    assert_eq!(l, ids(e, 1, "local_id"));
    assert_eq!(e["index"].as_u64().unwrap(), l[0]);
}

#[test]
fn divergence_and_assertion_name_their_threads() {
    let div = "procedure {:kernel} k()\n{\n  if (local_id_x < 3) {\n    barrier;\n  }\n}\n";
    let p = temp_file("div.kbpl", div);
    let run = verify_json(&p, &["--local-size", "8"]);
    assert_eq!(run.code, 1, "{}", run.json);
    let e = first_of_kind(&run, "divergence");
    let (a, b) = (ids(e, 0, "local_id")[0], ids(e, 1, "local_id")[0]);
    assert!((a < 3) != (b < 3), "one thread reaches the barrier, the other does not: {e}");
    assert!(e["message"].as_str().unwrap().contains(&format!("thread {a} of group 0")));

    let assertion = "procedure {:kernel} k()\n{\n  assert local_id_x != 5;\n}\n";
    let p = temp_file("assert.kbpl", assertion);
    let run = verify_json(&p, &["--local-size", "8"]);
    let e = first_of_kind(&run, "assertion");
    let t = e["failing_thread"].as_u64().unwrap() as usize;
    assert_eq!(ids(e, t, "local_id")[0], 5, "{e}");
    assert!(e["message"].as_str().unwrap().contains("thread 5 of group 0"), "{e}");
}

#[test]
fn replay_confirms_a_real_race_and_not_a_false_alarm() {
    let p = temp_file("ww_replay.kbpl", WW);
    let run = verify_json(&p, &["--local-size", "8", "--replay"]);
    assert_eq!(run.code, 1);
    let e = first_of_kind(&run, "race");
    assert_eq!(e["replay"], "confirmed", "{e}");
    assert_eq!(e["replay_run"]["threads"], "counterexample");
    assert!(e["replay_run"]["message"].as_str().unwrap().contains("write-write"));
    assert_eq!(run.file()["replay"]["confirmed"], 1);
    // Without a barrier invariant the abstraction forgets A[t] == t: a false alarm.
    let spurious = "var {:group_shared} A: [int]int;\nvar {:group_shared} B: [int]int;\n\
                    procedure {:kernel} k()\n{\n  A[local_id_x] := local_id_x;\n  barrier;\n  \
                    B[A[local_id_x]] := local_id_x;\n}\n";
    let p = temp_file("spurious.kbpl", spurious);
    let run = verify_json(&p, &["--local-size", "4", "--replay"]);
    assert_eq!(run.code, 1, "the abstraction reports a race: {}", run.json);
    let e = first_of_kind(&run, "race");
    assert_eq!(e["replay"], "possible", "{e}");
    assert!(e.get("replay_run").is_none());
    // Human output says so.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(["verify", "--local-size", "4", "--replay", p.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("replay: possible"), "{text}");
}

#[test]
fn replay_marks_every_corpus_error_and_confirms_most() {
    let buggy: Vec<_> = corpus().into_iter().filter(|(_, e, _)| e.is_some()).collect();
    let results = par_map(&buggy, |(path, _, args)| {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        a.push("--replay");
        (path.clone(), verify_json(path, &a))
    });
    let (mut total, mut confirmed) = (0usize, 0usize);
    let mut problems = Vec::new();
    for (path, run) in &results {
        let name = path.file_name().unwrap().to_string_lossy();
        let mut mine = (0, 0);
        for e in run.errors() {
            match e["replay"].as_str() {
                Some("confirmed") => mine.1 += 1,
                Some("possible") => {}
                Some(other) => problems.push(format!("{name}: replay `{other}`")),
                None if matches!(e["kind"].as_str(), Some("timeout" | "unsupported" | "syntax" | "type")) => continue,
                None => problems.push(format!("{name}: {} error without a replay mark", e["kind"])),
            }
            mine.0 += 1;
        }
        eprintln!("{name}: {} errors, {} confirmed", mine.0, mine.1);
        total += mine.0;
        confirmed += mine.1;
    }
    eprintln!("replay over {} buggy kernels: {confirmed} of {total} errors confirmed", buggy.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(total > 0);
    assert!(confirmed * 100 >= total * 80, "only {confirmed} of {total} errors confirmed");
}

/// The instructions per run of [`verify_reports_every_bug_that_run_finds`].
const CROSS_CHECK_STEPS: u64 = 200_000;

/// Soundness cross-check: every corpus kernel with concrete sizes in which `kivl run` (200
/// seeded random schedules) finds a race, divergence or assertion failure is reported with at
/// least one error by `kivl verify` with the header's arguments (with `--houdini` when the
/// header has it).
///
/// Each run is bounded by [`CROSS_CHECK_STEPS`] instructions, not `kivl run`'s default of
/// 20,000,000: a kernel whose loop bound is a random parameter (`infer_aligned.kbpl`) runs most
/// of its 200 runs to the bound, which took this test 13 minutes. The bugs of this corpus show
/// within far fewer steps: with 200,000 and with 2,000,000 the same 71 of 135 kernels have one.
#[test]
fn verify_reports_every_bug_that_run_finds() {
    let kernels: Vec<_> =
        corpus().into_iter().filter(|(_, _, args)| args.iter().any(|a| a == "--local-size")).collect();
    let results = par_map(&kernels, |(path, _, args)| {
        let mut run_args = vec!["run".to_string(), "--runs".into(), "200".into(), "--format".into(), "json".into()];
        run_args.extend(["--max-steps".into(), CROSS_CHECK_STEPS.to_string()]);
        run_args.extend(run_flags(args));
        run_args.push(path.to_str().unwrap().to_string());
        let a: Vec<&str> = run_args.iter().map(String::as_str).collect();
        let run = kivl(&a);
        if run.code != 1 {
            return (path.clone(), run.code, None);
        }
        let v: Vec<&str> = args.iter().map(String::as_str).collect();
        (path.clone(), 1, Some(verify_json(path, &v)))
    });
    let mut bugs = 0;
    let mut problems = Vec::new();
    for (path, code, verify) in &results {
        let name = path.file_name().unwrap().to_string_lossy();
        if *code == 4 {
            problems.push(format!("{name}: `kivl run` crashed"));
        }
        let Some(v) = verify else { continue };
        bugs += 1;
        if v.code != 1 || v.errors().is_empty() {
            problems.push(format!("{name}: `kivl run` finds a bug, `kivl verify` exits {} ({})", v.code, v.verdict()));
        }
    }
    eprintln!("cross-check: {} kernels with concrete sizes, {bugs} with a bug found by `kivl run`", kernels.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(bugs >= 20, "too few bugs found by `kivl run` to cross-check ({bugs})");
}
