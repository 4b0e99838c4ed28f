//! The driver's stages (issue 40): every stage whose output is a program goes through the pass
//! checker, on `verify`'s paths and on `transform --emit`'s; and what `--emit` prints of the
//! engine's stages is what `verify` goes on with (the options of the run included: Houdini's
//! candidate guards, monomorphisation).

use gpu_passes::driver::{self, Config, Stage};
use gpu_passes::two_thread::KernelOptions;
use ivl::ast::Program;
use std::collections::BTreeSet;
use std::path::Path;
use vcgen::engine::VerifyOptions;

#[path = "two_thread_common/mod.rs"]
mod common;

/// The stages the pass checker does not see, each with the reason. Any other stage that the
/// checker does not run on fails [`every_stage_is_checked`].
const NOT_CHECKED: [(Stage, &str); 3] = [
    // `src/pipeline.rs` prints them before the front end is done; the driver's input is
    // `checked`.
    (Stage::Kbpl, "text generated from a kernel, before the driver"),
    (Stage::Parsed, "the parsed program, before resolution, before the driver"),
    (Stage::Vc, "SMT-LIB, not a program"),
];

/// A kernel with a loop (for `termination`) and a call of a procedure with a body (for
/// `inlined`).
const KERNEL: &str = "\
var {:group_shared} A: [int]int;

procedure step(i: int) returns (j: int)
  ensures j == i + 1;
{
  j := i + 1;
}

procedure {:kernel} k()
{
  var i: int;
  i := 0;
  while (i < 4)
    invariant 0 <= i && i <= 4;
  {
    A[local_id_x * 4 + i] := i;
    call i := step(i);
  }
}
";

fn kernel() -> Program {
    common::front_end(KERNEL).expect("the sample kernel checks")
}

fn gpuverify_bpl() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/gpuverify_bpl/strided.bpl");
    common::front_end(&std::fs::read_to_string(path).unwrap()).expect("strided.bpl checks")
}

fn config() -> Config {
    Config {
        kernel: KernelOptions { local_size: Some(vec![4]), num_groups: Some(vec![1]), ..Default::default() },
        engine: VerifyOptions { jobs: 1, timeout_secs: Some(60), ..Default::default() },
        ..Default::default()
    }
}

#[test]
fn every_stage_is_checked() {
    let not_checked: BTreeSet<&str> = NOT_CHECKED.iter().map(|(s, _)| s.name()).collect();
    let mut checked = BTreeSet::new();
    for (stage, name, _) in Stage::ALL {
        let program = if stage == Stage::BplCandidates { gpuverify_bpl() } else { kernel() };
        let (out, seen) = driver::emit_checked(&program, stage, &config(), 2);
        assert!(out.is_ok(), "--emit {name}: {out:?}");
        if !not_checked.contains(name) {
            assert!(seen.contains(&stage), "--emit {name} did not check its stage: {seen:?}");
        }
        checked.extend(seen.iter().map(|s| s.name()));
    }
    // `verify`'s paths check the same stages as `emit`'s.
    let paths = [
        ("two-thread", Config { infer: true, ..config() }, kernel()),
        ("lock-step", Config { lockstep: Some(2), ..config() }, kernel()),
        ("termination", Config { termination: true, ..config() }, kernel()),
        (
            "gpuverify-bpl",
            Config { engine: VerifyOptions { houdini: true, ..config().engine }, ..config() },
            gpuverify_bpl(),
        ),
    ];
    let mut verified = BTreeSet::new();
    for (path, cfg, program) in paths {
        let (verdicts, seen) = driver::verify_checked(&program, &cfg);
        assert!(verdicts.result.errors.is_empty(), "{path}: {:?}", verdicts.result.errors);
        assert!(seen.contains(&Stage::Checked) && seen.contains(&Stage::Desugared), "{path}: {seen:?}");
        verified.extend(seen.iter().map(|s| s.name()));
    }
    let all: BTreeSet<&str> = Stage::ALL.iter().map(|(_, n, _)| *n).collect();
    let unchecked: Vec<_> = all.iter().filter(|n| !checked.contains(*n) && !not_checked.contains(*n)).collect();
    assert!(unchecked.is_empty(), "stages the pass checker never saw: {unchecked:?}");
    let missed: Vec<_> = checked.difference(&verified).collect();
    assert!(missed.is_empty(), "stages checked on `emit` but not on `verify`: {missed:?}");
    assert!(
        not_checked.iter().all(|n| !checked.contains(n)),
        "a stage listed as not checked is checked: update NOT_CHECKED"
    );
}

#[test]
fn a_broken_promise_is_an_error_naming_the_stage() {
    // An implementation without its procedure does not type-check.
    let (broken, _) = ivl::parser::parse_program("implementation P() { }\n");
    let d = gpu_passes::driver::pass_check::check(Stage::TwoThread, &broken).expect_err("does not type-check");
    assert!(d.message.contains("stage `two-thread`"), "{}", d.message);
    assert!(d.message.contains("internal error"), "{}", d.message);
}

/// A program whose engine preparation depends on the options: a `{:candidate}` (guarded with
/// Houdini, dropped without), polymorphic functions (monomorphised, the `{:inline}` one
/// expanded).
const BOOGIE: &str = "\
function {:inline} pick<T>(b: bool, x: T, y: T) : T { if b then x else y }
function size<T>(x: T) : int;
axiom (forall<T> x: T :: size(x) >= 0);
procedure P(n: int) returns (r: int)
  ensures r >= 0;
{
  var i: int;
  i := 0;
  while (i < n)
    invariant i >= 0;
    invariant {:candidate} i <= n;
  {
    i := pick(i < n, i + 1, i);
  }
  r := i + size(true);
}
";

#[test]
fn emitted_engine_stages_are_what_verify_prepares() {
    let program = common::front_end(BOOGIE).expect("the sample checks");
    for houdini in [false, true] {
        let cfg = Config { engine: VerifyOptions { houdini, ..config().engine }, ..config() };
        let opts = &cfg.engine;
        let prepared = vcgen::engine::prepare(&program, opts).expect("prepares");
        let desugared = driver::emit(&program, Stage::Desugared, &cfg, 2).expect("emits");
        assert_eq!(desugared, ivl::printer::print_program(&prepared.desugared_program()), "houdini {houdini}");
        // What the old `--emit desugared` (default options) got wrong.
        assert_eq!(desugared.contains("kivl$candidate"), houdini, "guards only with Houdini:\n{desugared}");
        assert!(!desugared.contains("{:candidate}"), "candidates are guarded or dropped:\n{desugared}");
        assert!(!desugared.contains("<T>"), "monomorphised:\n{desugared}");
        let passified = vcgen::engine::emit::passify_all(&prepared).expect("passifies");
        let printed = ivl::printer::print_program(&vcgen::engine::emit::passified_program(&prepared, &passified));
        assert_eq!(driver::emit(&program, Stage::Passified, &cfg, 2).expect("emits"), printed);
        let vc = vcgen::engine::emit::vc_text(&prepared, &passified).expect("vc");
        assert_eq!(driver::emit(&program, Stage::Vc, &cfg, 2).expect("emits"), vc);
        // The same preparation as the library's entry point.
        let via_engine = vcgen::engine::emit_stage(&program, vcgen::engine::EmitStage::Desugared, opts).unwrap();
        assert_eq!(via_engine, desugared);
    }
}
