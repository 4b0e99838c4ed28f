//! GPUVerify's instrumented Boogie without the kernel author's loop invariants
//! (`tests/gpuverify_bpl/`): kivl's `bpl-candidates` stage (gpu-passes/src/gpuverify_bpl)
//! proves a grid-strided write race-free with `--houdini`, and its racy twin (stride one
//! group) still reports the race.

mod common;

use common::{kivl, repo_dir};

fn path(name: &str) -> String {
    repo_dir(&format!("tests/gpuverify_bpl/{name}.bpl")).to_str().unwrap().to_string()
}

fn verify(name: &str, houdini: bool) -> common::Run {
    let file = path(name);
    let mut args = vec!["verify", "--format", "json"];
    if houdini {
        args.push("--houdini");
    }
    args.push(&file);
    kivl(&args)
}

#[test]
fn a_grid_strided_write_verifies_with_the_strided_candidates() {
    let run = verify("strided", true);
    assert_eq!((run.code, run.verdict()), (0, "verified"), "{}", run.stderr);
    // Without Houdini there are no candidates, and the file carries no invariant.
    let run = verify("strided", false);
    assert_eq!((run.code, run.verdict()), (1, "errors"), "{}", run.stderr);
}

#[test]
fn the_racy_twin_still_fails_its_write_write_check() {
    let run = verify("strided_race", true);
    assert_eq!((run.code, run.verdict()), (1, "errors"), "{}", run.stderr);
    // The call of `_CHECK_WRITE_$$A` (line 44) fails: no candidate hides the race.
    assert_eq!(run.error_summary(), vec![("precondition".to_string(), 44)]);
}

#[test]
fn the_stage_prints_the_candidates_guarded_as_gpuverify_guards_its_own() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(["transform", "--emit", "bpl-candidates", &path("strided")])
        .output()
        .expect("running kivl");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let proved = "assert {:tag \"kivl_strided\"} {:thread 1} _kb1 ==> _WRITE_HAS_OCCURRED_$$A ==> \
                  BV32_UREM(_WATCHED_OFFSET, BV32_MUL(group_size_x, num_groups_x)) == \
                  BV32_ADD(BV32_MUL(group_id_x$1, group_size_x), local_id_x$1);";
    assert!(text.contains(proved), "{text}");
    assert!(text.contains("const {:existential true} _kb1: bool;"), "{text}");
    assert!(text.contains("function {:bvbuiltin \"bvurem\"} BV32_UREM(bv32, bv32): bv32;"), "{text}");
}
