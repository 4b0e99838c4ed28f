//! GPUVerify's options with their GPUVerify meaning (issue 43, docs/kbpl.md §8.1): each test
//! runs a kernel with and without the option and asserts the verdict it changes or keeps, with
//! the error's kind and line. The kernels are those of GPUVerify's suite that use the options
//! (`testsuite/OpenCL/annotation_tests/…`, `no_log/…`, `get_global_offset`, `abstract_add/…`),
//! written out here so that the tests do not need the suite.

mod common;

use common::{kivl, Run};
use std::io::Write;
use std::path::{Path, PathBuf};

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kivl-gv-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path).unwrap().write_all(text.as_bytes()).unwrap();
    path
}

/// `kivl verify --format json --jobs 1 ARGS FILE`.
fn verify(file: &Path, args: &[&str]) -> Run {
    let mut all = vec!["verify", "--format", "json", "--jobs", "1"];
    all.extend(args);
    all.push(file.to_str().unwrap());
    kivl(&all)
}

fn verified(run: &Run) {
    assert_eq!((run.code, run.verdict()), (0, "verified"), "{:?} {}", run.error_summary(), run.stderr);
}

fn kinds_and_lines(run: &Run) -> Vec<(String, u64)> {
    let mut v = run.error_summary();
    v.sort();
    v.dedup();
    v
}

fn fails_with(run: &Run, kind: &str, line: u64) {
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(kinds_and_lines(run), vec![(kind.to_string(), line)]);
}

const SIZES: [&str; 2] = ["--local_size=64", "--num_groups=64"];

/// An invariant that does not hold (GPUVerify's annotation_tests/no_annotations).
const FALSE_INVARIANT: &str = "__kernel void foo() {\n  for (int i = 0; __invariant(0), i < 5; i++) {}\n}\n";

#[test]
fn no_annotations_drops_the_kernels_annotations() {
    let k = temp_file("no_annotations.cl", FALSE_INVARIANT);
    fails_with(&verify(&k, &SIZES), "invariant-entry", 2);
    verified(&verify(&k, &[&SIZES[..], &["--no-annotations"]].concat()));
    // `__assert` is no annotation GPUVerify drops.
    let a = temp_file(
        "no_annotations_assert.cl",
        "__kernel void foo(int x) {\n  __requires(x == 1);\n  __assert(x == 1);\n}\n",
    );
    verified(&verify(&a, &SIZES));
    fails_with(&verify(&a, &[&SIZES[..], &["--no-annotations"]].concat()), "assertion", 3);
}

#[test]
fn only_requires_keeps_requires_only() {
    // GPUVerify's annotation_tests/only_requires: without `j == 0` the accesses race.
    let k = temp_file(
        "only_requires.cl",
        "__kernel void foo(global int * A, int j) {\n  __requires(j == 0);\n  for (int i = 0; __invariant(0), i < 5; i++) {\n    A[get_global_id(0) + j] = A[get_global_id(0)];\n  }\n}\n",
    );
    verified(&verify(&k, &[&SIZES[..], &["--only-requires"]].concat()));
    fails_with(&verify(&k, &SIZES), "invariant-entry", 3);
    let without = verify(&k, &[&SIZES[..], &["--no-annotations"]].concat());
    assert_eq!(without.code, 1);
    assert!(
        kinds_and_lines(&without).iter().all(|(kind, line)| kind == "race" && *line == 4),
        "{:?}",
        without.error_summary()
    );
    let both = verify(&k, &[&SIZES[..], &["--no-annotations", "--only-requires"]].concat());
    assert_eq!(both.code, 2, "GPUVerify's two options exclude each other");
}

#[test]
fn invariants_as_candidates_keeps_only_what_holds() {
    let k = temp_file("as_candidates.cl", FALSE_INVARIANT);
    verified(&verify(&k, &[&SIZES[..], &["--invariants-as-candidates"]].concat()));
    // A true invariant is a candidate Houdini keeps; a candidate is never assumed unproven, so
    // without inference (no Houdini) it is not used at all.
    let t = temp_file(
        "as_candidates_kept.cl",
        "__kernel void foo(int n) {\n  int j = 0;\n  for (int i = 0; __invariant(j == 0), i < n; i++) { j = j * 2; }\n  __assert(j == 0);\n}\n",
    );
    verified(&verify(&t, &[&SIZES[..], &["--invariants-as-candidates"]].concat()));
    verified(&verify(&t, &[&SIZES[..], &["--no-infer"]].concat()));
    fails_with(&verify(&t, &[&SIZES[..], &["--invariants-as-candidates", "--no-infer"]].concat()), "assertion", 4);
}

#[test]
fn global_offset_shifts_global_ids() {
    // GPUVerify's get_global_offset.
    let k = temp_file(
        "global_offset.cl",
        "__kernel void foo() {\n  __assert(get_global_id(0) >= 64);\n  __assert(get_global_offset(0) == 64);\n  __assert(get_global_offset(1) == 0);\n}\n",
    );
    verified(&verify(&k, &[&SIZES[..], &["--global_offset=64"]].concat()));
    verified(&verify(&k, &[&SIZES[..], &["--global-offset", "64"]].concat()));
    let none = verify(&k, &SIZES);
    assert_eq!(none.code, 1);
    assert_eq!(kinds_and_lines(&none), vec![("assertion".into(), 2), ("assertion".into(), 3)]);
    // One offset per dimension of the grid, as GPUVerify checks.
    assert_eq!(verify(&k, &[&SIZES[..], &["--global_offset=64,0"]].concat()).code, 2);
    // CUDA has no global offset; a .kbpl file computes its global ids itself.
    let cu = temp_file("global_offset.cu", "__global__ void foo() {}\n");
    let refused = verify(&cu, &["--blockDim=64", "--gridDim=64", "--global_offset=64"]);
    assert_eq!(refused.code, 2);
    assert!(refused.errors()[0]["message"].as_str().unwrap().contains("CUDA kernel has none"));
    let kbpl = temp_file("global_offset.kbpl", "procedure {:kernel} k() {}\n");
    let refused = verify(&kbpl, &["--global_offset=64"]);
    assert_eq!(refused.code, 2);
    assert!(refused.errors()[0]["message"].as_str().unwrap().contains("for a .kbpl or .bpl file"));
}

#[test]
fn only_log_logs_without_checking_races() {
    // GPUVerify's no_log/pass: a race, not reported under --only-log.
    let racy = temp_file("only_log_race.cl", "__kernel void foo(__local int* A) {\n  A[0] = get_local_id(0);\n}\n");
    let sizes = ["--local_size=16", "--num_groups=1"];
    fails_with(&verify(&racy, &sizes), "race", 2);
    let unchecked = verify(&racy, &[&sizes[..], &["--only-log"]].concat());
    verified(&unchecked);
    // The run says what its "verified" does not cover.
    assert!(unchecked.stderr.contains("note: weaker check: --only-log: races are not checked"), "{}", unchecked.stderr);
    // no_log/fail: the accesses are still logged, so `__write(A)` is true after the write.
    let logged = temp_file(
        "only_log_logged.cl",
        "__kernel void foo(__local int* A) {\n  A[get_local_id(0)] = get_local_id(0);\n  __assert(!__write(A));\n}\n",
    );
    fails_with(&verify(&logged, &[&sizes[..], &["--only-log"]].concat()), "assertion", 3);
}

#[test]
fn boogie_file_adds_its_axioms() {
    // GPUVerify's abstract_add/zero.
    let k = temp_file(
        "boogie_file.cl",
        "DECLARE_UF_BINARY(A, unsigned, unsigned, unsigned);\n\n__kernel void foo(unsigned x) {\n  __assert(A(x, 0) == x);\n}\n",
    );
    let axioms = temp_file("axioms.bpl", "type T = bv32;\naxiom (forall x : T :: { A(x, 0bv32) } A(x, 0bv32) == x);\n");
    let with = format!("--boogie-file={}", axioms.display());
    verified(&verify(&k, &[&SIZES[..], &[with.as_str()]].concat()));
    fails_with(&verify(&k, &SIZES), "assertion", 4);
    // Errors in the Boogie file name it, with its line and column.
    let bad = temp_file("bad_axioms.bpl", "type T = bv32;\naxiom B(0bv32) == 0bv32;\n");
    let run = verify(&k, &[&SIZES[..], &[format!("--boogie-file={}", bad.display()).as_str()]].concat());
    assert_eq!(run.code, 2);
    let message = run.errors()[0]["message"].as_str().unwrap().to_string();
    assert!(message.contains(&format!("(--boogie-file {}:2:7)", bad.display())), "{message}");
    // A missing file is a usage error, as in GPUVerify (which opens it with its command line).
    assert_eq!(verify(&k, &[&SIZES[..], &["--boogie-file=/nonexistent/axioms.bpl"]].concat()).code, 2);
}

#[test]
fn global_size_with_a_symbolic_local_size() {
    // GPUVerify's unconstrained_sizes/local_size: the group size divides the global size.
    let k = temp_file(
        "global_size.cl",
        "kernel void foo() {\n  __assert(get_local_size(0) <= 1024);\n  __assert(get_global_size(0) % get_local_size(0) == 0);\n  __assert(get_local_size(0) <= 512);\n}\n",
    );
    fails_with(&verify(&k, &["--local_size=*", "--global_size=1024"]), "assertion", 4);
    verified(&verify(&k, &["--local_size=*", "--global_size=512"]));
}

#[test]
fn options_without_effect_are_noted() {
    // GPUVerify's barrier_invariants/no_access_check: kivl's check of a barrier invariant is
    // sound without access checks, so the option changes nothing, and says so.
    let k = temp_file(
        "no_access_check.cl",
        "__kernel void foo() {\n  __local int A[128];\n  A[get_local_id(0)] = get_local_id(0);\n  __barrier_invariant_1(A[get_local_id(0)] == get_local_id(0), 0);\n  barrier(CLK_LOCAL_MEM_FENCE);\n  A[get_local_id(0)] = get_local_id(0) + 1;\n  __barrier_invariant_1(A[0] == 0, get_local_id(0));\n  barrier(CLK_LOCAL_MEM_FENCE);\n}\n",
    );
    let sizes = ["--local_size=128", "--num_groups=1"];
    for extra in [&[][..], &["--no-barrier-access-checks"]] {
        let run = verify(&k, &[&sizes[..], extra].concat());
        fails_with(&run, "barrier-invariant", 8);
        assert_eq!(
            run.stderr.contains("note: no effect: --no-barrier-access-checks"),
            !extra.is_empty(),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn dry_run_checks_the_command_line_only() {
    let missing = "/nonexistent/kernel.cl";
    assert_eq!(kivl(&["verify", "--dry-run", "--local_size=64", "--only-log", missing]).code, 0);
    assert_eq!(kivl(&["verify", "--dry-run", "--local_size=0", missing]).code, 2);
    assert_eq!(kivl(&["verify", "--dry-run", "--equality-abstraction", "--adversarial-abstraction", missing]).code, 2);
    assert_eq!(kivl(&["verify", "--dry-run", "--made-up-option", missing]).code, 2);
}
