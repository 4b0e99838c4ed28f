//! Issue 22's verification semantics on the command line: inference on by default for kernels
//! (`--no-infer` turns it off, and errors then say that inference might help), the wording of
//! a `--timeout` with symbolic sizes (a suggestion of concrete sizes), `--kernel-args` and
//! `--asymmetric-asserts` (GPUVerify's options), each on a correct kernel and a buggy twin.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kivl-cli-infer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn kernel(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels").join(name)
}

/// `kivl verify --format json ARGS FILE`, exactly these arguments.
fn verify(file: &Path, args: &[&str]) -> Run {
    let mut a = vec!["verify", "--format", "json"];
    a.extend_from_slice(args);
    a.push(file.to_str().unwrap());
    kivl(&a)
}

fn notes(run: &Run) -> String {
    run.errors().iter().map(|e| e["notes"].to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn inference_is_on_by_default_and_no_infer_turns_it_off_with_a_hint() {
    let k = kernel("access_strided_infer.kbpl");
    let sizes = ["--local-size", "64", "--num-groups", "4"];
    let run = verify(&k, &sizes);
    assert_eq!((run.code, run.verdict()), (0, "verified"), "{:?}", run.json);
    let off = verify(&k, &[&sizes[..], &["--no-infer"]].concat());
    assert_eq!((off.code, off.verdict()), (1, "errors"), "{:?}", off.json);
    assert!(notes(&off).contains("inference is off (--no-infer)"), "{}", notes(&off));
    // The racy twin fails either way, and with inference on no hint is given.
    let race = verify(&kernel("access_strided_infer_race.kbpl"), &sizes);
    assert_eq!((race.code, race.verdict()), (1, "errors"));
    assert!(!notes(&race).contains("--no-infer"), "{}", notes(&race));
    // `--houdini` is still accepted on kernels (redundant).
    assert_eq!(verify(&k, &[&sizes[..], &["--houdini"]].concat()).code, 0);
}

#[test]
fn a_timeout_with_symbolic_sizes_says_timed_out_and_suggests_sizes() {
    // The grid-stride kernel with symbolic sizes: non-linear residues Z3 does not decide in 1 s.
    // A limit per search, not per file: Z3 4.8.12 can take seconds to heed the interrupt here,
    // and a file still running past `--timeout` is given up without its verdicts.
    let run = verify(&kernel("grid_stride.kbpl"), &["--timeout", "0", "--search-timeout", "1"]);
    assert_eq!((run.code, run.verdict()), (3, "inconclusive"), "{:?}", run.json);
    let text = run.json.to_string();
    assert!(text.contains("timed out after 1 s (--search-timeout)"), "{text}");
    assert!(text.contains("--local-size 64 --num-groups 16"), "{text}");
    assert!(!text.contains("canceled"), "{text}");
}

const SCALED: &str = "var {:group_shared} A: [int]int;\n\
procedure {:kernel} scaled(s: int, v: int)\n\
{\n\
  A[local_id_x * s] := local_id_x + v;\n\
}\n";

#[test]
fn kernel_args_fix_scalar_parameters() {
    let k = temp_file("scaled.kbpl", SCALED);
    let sizes = ["--local-size", "4"];
    // s == 0: every thread writes A[0] (different values: a race); s == 1: distinct elements.
    let any = verify(&k, &sizes);
    assert_eq!(any.verdict(), "errors", "{:?}", any.json);
    let one = verify(&k, &[&sizes[..], &["--kernel-args=scaled,1,*"]].concat());
    assert_eq!((one.code, one.verdict()), (0, "verified"), "{:?}", one.json);
    let zero = verify(&k, &[&sizes[..], &["--kernel-args=scaled,0,*"]].concat());
    assert_eq!(zero.verdict(), "errors", "{:?}", zero.json);
    assert_eq!(zero.errors()[0]["kind"], "race");
    // A wrong count or an unknown kernel is a located input error, never a verdict.
    for bad in ["--kernel-args=scaled,1", "--kernel-args=other,1,2", "--kernel-args=scaled,x,1"] {
        let run = verify(&k, &[&sizes[..], &[bad]].concat());
        assert_eq!((run.code, run.verdict()), (2, "invalid"), "{bad}: {:?}", run.json);
        assert_eq!(run.errors()[0]["kind"], "unsupported", "{bad}");
    }
}

const ASSERTS: &str = "procedure {:kernel} k()\n\
{\n\
  assert local_id_x < group_size_x;\n\
  assert local_id_x != LIMIT;\n\
}\n";

#[test]
fn asymmetric_asserts_check_the_first_thread_only_and_still_find_failures() {
    let ok = temp_file("asym_ok.kbpl", &ASSERTS.replace("LIMIT", "7"));
    let bug = temp_file("asym_bug.kbpl", &ASSERTS.replace("LIMIT", "2"));
    for args in [&["--local-size", "4"][..], &["--local-size", "4", "--asymmetric-asserts"]] {
        assert_eq!(verify(&ok, args).verdict(), "verified", "{args:?}");
        let run = verify(&bug, args);
        assert_eq!(run.verdict(), "errors", "{args:?}");
        assert_eq!(run.errors()[0]["kind"], "assertion");
    }
    // The two-thread program asserts the user's assertions once instead of twice.
    let count = |extra: &[&str]| {
        let mut a = vec!["transform", "--emit", "two-thread", "--local-size", "4"];
        a.extend_from_slice(extra);
        a.push(bug.to_str().unwrap());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl")).args(&a).output().unwrap();
        String::from_utf8_lossy(&out.stdout).matches("this assertion might not hold").count()
    };
    assert_eq!(count(&[]), 2 * count(&["--asymmetric-asserts"]));
    assert!(count(&["--asymmetric-asserts"]) > 0);
}
