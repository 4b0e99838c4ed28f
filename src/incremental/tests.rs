//! The incremental verifier against the whole-program pipeline, and salsa's log of which
//! queries re-ran after an edit.

use super::*;
use crate::report::Verdict;

fn config() -> VerifyConfig {
    let mut cfg = crate::KernelArgs::default().config();
    cfg.driver.engine =
        vcgen::engine::VerifyOptions { jobs: 1, timeout_secs: Some(20), error_limit: 5, ..Default::default() };
    cfg
}

const NEVER: &(dyn Fn() -> bool + Sync) = &|| false;

/// Three procedures: `A` calls `B` (through its contract), `C` stands alone and fails.
const PROGRAM: &str = "\
var g: int;

procedure A() modifies g; {
  call B();
  assert g > 0;
}

procedure B() modifies g; ensures g > 0; {
  g := 1;
}

procedure C(x: int) {
  assert x > 0;
}
";

/// The `unit_verdict` executions of the last verification.
fn verdicts_run(s: &Session) -> usize {
    s.executions().iter().filter(|q| q.starts_with("unit_verdict(")).count()
}

fn error_lines(r: &FileReport) -> Vec<usize> {
    r.errors.iter().map(|d| r.source.line_col(d.primary.span.start).0).collect()
}

#[test]
fn an_edit_re_verifies_only_what_depends_on_it() {
    let mut s = Session::new(&config());
    let first = s.verify("a.bpl", PROGRAM.to_string(), NEVER).expect("not cancelled");
    assert_eq!((first.units, first.verified_units, verdicts_run(&s)), (3, 3, 3));
    assert_eq!(first.report.verdict, Verdict::Errors);
    assert_eq!(error_lines(&first.report), [13]);

    // C's body: only C's declaration is parsed and checked again, only C is verified again;
    // the slices of A and B are computed again, equal to the previous ones (backdated), so
    // nothing after them runs.
    let edited = PROGRAM.replace("assert x > 0;", "assert x > 0 || x <= 0;");
    let r = s.verify("a.bpl", edited.clone(), NEVER).expect("not cancelled");
    eprintln!("after editing C's body: {:?}", s.executions());
    let ran = |query: &str| s.executions().iter().filter(|q| q.starts_with(&format!("{query}("))).count();
    assert_eq!((ran("parse_decl_query"), ran("check_decl_query")), (1, 1), "{:?}", s.executions());
    assert_eq!((ran("sliced"), ran("slice_program"), ran("unit_verdict")), (3, 1, 1), "{:?}", s.executions());
    assert_eq!(verdicts_run(&s), 1, "{:?}", s.executions());
    assert_eq!(r.verified_units, 1);
    assert_eq!(r.report.verdict, Verdict::Verified);

    // B's body, not its contract: only B (A reads B's contract).
    let edited = edited.replace("g := 1;", "g := 2;");
    s.verify("a.bpl", edited.clone(), NEVER).expect("not cancelled");
    assert_eq!(verdicts_run(&s), 1, "{:?}", s.executions());

    // B's contract: B and its caller A.
    let edited = edited.replace("ensures g > 0;", "ensures g > 1;");
    s.verify("a.bpl", edited.clone(), NEVER).expect("not cancelled");
    assert_eq!(verdicts_run(&s), 2, "{:?}", s.executions());

    // Lines above everything: nothing is verified again, the spans move.
    let moved = format!("// one\n// two\n{}", edited.replace("assert x > 0 || x <= 0;", "assert x > 0;"));
    let r = s.verify("a.bpl", moved.clone(), NEVER).expect("not cancelled");
    assert_eq!(verdicts_run(&s), 1, "only C changed: {:?}", s.executions());
    assert_eq!(error_lines(&r.report), [15]);
    let r = s.verify("a.bpl", format!("\n{moved}"), NEVER).expect("not cancelled");
    assert_eq!(verdicts_run(&s), 0, "nothing changed but offsets: {:?}", s.executions());
    assert_eq!(error_lines(&r.report), [16], "the error follows its line");
}

#[test]
fn plain_boogie_is_split_per_implementation_with_verify_s_default_flags() {
    // `kivl watch` takes `kivl verify`'s flags: inference is on by default, for kernels only.
    use clap::Parser as _;
    let split = |flags: &[&str]| {
        let argv = ["kivl", "verify"].iter().chain(flags).chain(&["a.bpl"]).copied();
        let cli = crate::Cli::try_parse_from(argv).expect("verify's flags");
        let crate::Command::Verify(args) = cli.command else { panic!("a verify command") };
        Flags::new(&crate::verify_config(&args)).per_implementation()
    };
    assert!(split(&[]));
    assert!(!split(&["--houdini"]));
    assert!(!split(&["--inline-depth", "1"]), "callees' bodies are read");
}

#[test]
fn an_inlined_body_re_verifies_its_inliners() {
    let text = "\
procedure {:inline 1} Inc(x: int) returns (y: int) { y := x + 1; }
procedure User() { var r: int; call r := Inc(1); assert r == 2; }
procedure Other() { assert true; }
";
    let mut s = Session::new(&config());
    let r = s.verify("b.bpl", text.to_string(), NEVER).expect("not cancelled");
    assert_eq!(r.report.verdict, Verdict::Verified);
    let r = s.verify("b.bpl", text.replace("x + 1", "x + 2"), NEVER).expect("not cancelled");
    assert_eq!(verdicts_run(&s), 2, "Inc and User: {:?}", s.executions());
    assert_eq!(r.report.verdict, Verdict::Errors, "User's assertion fails with the new body");
}

#[test]
fn a_cancelled_verification_keeps_nothing_wrong() {
    let mut s = Session::new(&config());
    assert!(s.verify("c.bpl", PROGRAM.to_string(), &|| true).is_none());
    let r = s.verify("c.bpl", PROGRAM.to_string(), NEVER).expect("not cancelled");
    assert_eq!(r.report.verdict, Verdict::Errors);
}

/// Every plain Boogie test file: the incremental report (units verified on two threads) is the
/// whole-program pipeline's, and so it stays after a no-op edit (a line added at the top moves
/// every span).
#[test]
fn reports_equal_the_whole_program_pipeline() {
    compare_with_pipeline("tests/boogie", "bpl", 1, 2);
}

/// Kernels (one unit: the whole program), every 8th file of `tests/kernels`.
#[test]
fn kernel_reports_equal_the_whole_program_pipeline() {
    compare_with_pipeline("tests/kernels", "kbpl", 8, 1);
}

/// `jobs`: the session's threads (units verified in parallel); the pipeline runs on one.
fn compare_with_pipeline(dir: &str, ext: &str, step: usize, jobs: usize) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("the test directory").flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == ext));
    files.sort();
    assert!(files.len() > 50);
    let mut cfg = config();
    // The kernels' headers ask for these sizes at most; the same for both runs either way.
    cfg.driver.kernel.local_size = Some(vec![16]);
    let mut parallel = cfg.clone();
    parallel.driver.engine.jobs = jobs;
    let mut s = Session::new(&parallel);
    for path in files.into_iter().step_by(step) {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        let whole = crate::pipeline::verify_source(ivl::diag::SourceFile::new(name.clone(), text.clone()), &cfg);
        let inc = s.verify(&name, text.clone(), NEVER).expect("not cancelled").report;
        same(&whole, &inc, &name);
        let moved = s.verify(&name, format!("\n{text}"), NEVER).expect("not cancelled").report;
        assert_eq!(moved.verdict, whole.verdict, "{name}");
        let lines = |r: &FileReport, by: usize| error_lines(r).iter().map(|l| l + by).collect::<Vec<_>>();
        assert_eq!(lines(&moved, 0), lines(&whole, 1), "{name}: errors follow their lines");
    }
}

fn same(a: &FileReport, b: &FileReport, name: &str) {
    assert_eq!(a.verdict, b.verdict, "{name}");
    assert_eq!(a.errors, b.errors, "{name}");
    assert_eq!(a.info, b.info, "{name}");
    assert_eq!(untimed(&a.extra), untimed(&b.extra), "{name}");
}

/// A report's fields without the implementations' times, which differ from run to run.
fn untimed(extra: &serde_json::Map<String, serde_json::Value>) -> serde_json::Map<String, serde_json::Value> {
    let mut m = extra.clone();
    if let Some(serde_json::Value::Array(impls)) = m.get_mut("implementations") {
        impls.iter_mut().filter_map(|i| i.as_object_mut()).for_each(|i| drop(i.remove("time_ms")));
    }
    m
}

/// Four procedures with candidate loop invariants, two of each false (`--houdini`).
fn houdini_program() -> String {
    (1..=4)
        .map(|k| {
            format!(
                "procedure P{k}(n: int)\n  requires n >= 0;\n{{\n  var i: int;\n  i := 0;\n  while (i < n)\n    \
                 invariant {{:candidate}} i >= 0;\n    invariant {{:candidate}} i <= n;\n    \
                 invariant {{:candidate}} i < 0;\n    invariant {{:candidate}} i == n + {k};\n  {{\n    \
                 i := i + 1;\n  }}\n  assert i == n;\n}}\n\n"
            )
        })
        .collect()
}

fn houdini_config() -> VerifyConfig {
    let mut cfg = config();
    cfg.driver.engine.houdini = true;
    cfg
}

/// The `houdini` JSON field's `field` (checks, rounds, kept …).
fn houdini_stat(r: &FileReport, field: &str) -> u64 {
    r.extra["houdini"][field].as_u64().unwrap_or_else(|| panic!("houdini.{field} in {:?}", r.extra))
}

/// A report without what differs between a warm and a cold run (times, Houdini's work).
fn same_but_houdini_work(warm: &FileReport, cold: &FileReport, name: &str) {
    same_but(warm, cold, name, &["rounds", "checks", "time_s"]);
}

/// The same, and without the numbers of candidates: kernels verified one by one count the
/// candidates of each kernel's program, the whole program has a few more.
fn same_but_houdini_counts(split: &FileReport, whole: &FileReport, name: &str) {
    same_but(split, whole, name, &["candidates", "kept", "rounds", "checks", "time_s"]);
    let info = |r: &FileReport| r.info.iter().filter(|l| !l.starts_with("houdini: ")).cloned().collect::<Vec<_>>();
    assert_eq!(info(split), info(whole), "{name}");
}

/// `a` and `b` equal but for the implementations' times and the `houdini` fields `ignored`
/// (and, when the candidates are ignored, the `houdini: ` info line).
fn same_but(a: &FileReport, b: &FileReport, name: &str, ignored: &[&str]) {
    let strip = |r: &FileReport| {
        let mut m = untimed(&r.extra);
        if let Some(h) = m.get_mut("houdini").and_then(|h| h.as_object_mut()) {
            ignored.iter().for_each(|k| drop(h.remove(*k)));
        }
        m
    };
    assert_eq!(a.verdict, b.verdict, "{name}");
    assert_eq!(a.errors, b.errors, "{name}");
    if !ignored.contains(&"candidates") {
        assert_eq!(a.info, b.info, "{name}");
    }
    assert_eq!(strip(a), strip(b), "{name}");
}

/// The edited text verified twice: by the session that saw the previous text (warm) and by a
/// new one (cold).
fn warm_and_cold(s: &mut Session, name: &str, edited: &str, cfg: &VerifyConfig) -> (FileReport, FileReport) {
    let warm = s.verify(name, edited.to_string(), NEVER).expect("not cancelled").report;
    let cold = Session::new(cfg).verify(name, edited.to_string(), NEVER).expect("not cancelled").report;
    same_but_houdini_work(&warm, &cold, name);
    (warm, cold)
}

#[test]
fn houdini_restarts_from_the_refutations_of_unchanged_procedures() {
    let cfg = houdini_config();
    let mut s = Session::new(&cfg);
    let text = houdini_program();
    let first = s.verify("h.bpl", text.clone(), NEVER).expect("not cancelled").report;
    assert_eq!(first.verdict, Verdict::Verified, "{:?}", first.errors);
    assert_eq!((houdini_stat(&first, "candidates"), houdini_stat(&first, "kept")), (16, 8));

    // P4's body: P1-P3's false candidates start false, P4's all start true again.
    let edited = text.replacen("i := i + 1;", "i := 1 + i;", 4).replacen("i := 1 + i;", "i := i + 1;", 3);
    assert_ne!(edited, text);
    let (warm, cold) = warm_and_cold(&mut s, "h.bpl", &edited, &cfg);
    assert_eq!(warm.verdict, Verdict::Verified);
    assert!(
        houdini_stat(&warm, "checks") < houdini_stat(&cold, "checks"),
        "warm {:?} against cold {:?}",
        warm.extra["houdini"],
        cold.extra["houdini"]
    );

    // P2's assertion broken: the warm run (P1, P3, P4's false candidates start false) does not
    // verify, so it is run cold again: the same errors as a cold run.
    let broken = edited.replacen(
        "i == n + 2;\n  {\n    i := i + 1;\n  }\n  assert i == n;",
        "i == n + 2;\n  {\n    i := i + 1;\n  }\n  assert i == n + 1;",
        1,
    );
    assert_ne!(broken, edited);
    let (warm, cold) = warm_and_cold(&mut s, "h.bpl", &broken, &cfg);
    assert_eq!((warm.verdict, error_lines(&warm)), (Verdict::Errors, vec![30]));
    assert_eq!(houdini_stat(&warm, "checks"), houdini_stat(&cold, "checks"), "the cold run's work is reported");
}

/// `tests/kernels/infer_equal.kbpl`'s flags: inference, 16 threads in each of 2 groups.
fn kernel_config() -> VerifyConfig {
    let mut cfg = houdini_config();
    cfg.driver.infer = true;
    cfg.driver.kernel.local_size = Some(vec![16]);
    cfg.driver.kernel.num_groups = Some(vec![2]);
    cfg
}

#[test]
fn a_kernel_edited_in_its_body_gets_the_cold_verdict() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels/infer_equal.kbpl");
    let text = std::fs::read_to_string(path).expect("the kernel");
    let cfg = kernel_config();
    let mut s = Session::new(&cfg);
    let first = s.verify("k.kbpl", text.clone(), NEVER).expect("not cancelled").report;
    assert_eq!(first.verdict, Verdict::Verified, "{:?}", first.errors);
    let harmless = text.replace("A[local_id_x * 16 + i] := i;", "A[local_id_x * 16 + i] := i + 1;");
    let (warm, _) = warm_and_cold(&mut s, "k.kbpl", &harmless, &cfg);
    assert_eq!(warm.verdict, Verdict::Verified);
    let racy = harmless.replace("A[local_id_x * 16 + i]", "A[local_id_x + i]");
    let (warm, _) = warm_and_cold(&mut s, "k.kbpl", &racy, &cfg);
    assert_eq!(warm.verdict, Verdict::Errors);
    assert!(warm.errors.iter().any(|d| d.kind.as_str() == "race"), "{:?}", warm.errors);
}

const TWO_KERNELS: &str = "\
var {:group_shared} A: [int]int;
var {:group_shared} B: [int]int;

procedure {:kernel} triangle()
{
  var i: int;
  i := 0;
  while (i < local_id_x)
  {
    A[local_id_x * 16 + i] := i;
    i := i + 1;
  }
}

procedure {:kernel} strided(n: int)
{
  var j: int;
  j := 0;
  while (j < n)
  {
    B[j * group_size_x + local_id_x] := local_id_x;
    j := j + 1;
  }
}
";

/// A declaration both kernels' slices contain: both are verified again, each Houdini from its
/// previous refutations.
#[test]
fn editing_a_shared_declaration_restarts_houdini_warm() {
    let cfg = kernel_config();
    let mut s = Session::new(&cfg);
    let first = s.verify("two.kbpl", TWO_KERNELS.to_string(), NEVER).expect("not cancelled").report;
    assert_eq!(first.verdict, Verdict::Verified, "{:?}", first.errors);
    let edited =
        TWO_KERNELS.replace("var {:group_shared} B: [int]int;", "var {:group_shared} B: [int]int;\nconst N: int;");
    let (warm, cold) = warm_and_cold(&mut s, "two.kbpl", &edited, &cfg);
    assert_eq!(verdicts_run(&s), 2, "{:?}", s.executions());
    assert_eq!(warm.verdict, Verdict::Verified);
    assert!(houdini_stat(&warm, "checks") < houdini_stat(&cold, "checks"), "{:?} {:?}", warm.extra, cold.extra);
}

/// Kernels are units of their own: an edit of one re-verifies that one; the report is the
/// whole-program pipeline's (but for Houdini's work, counted per kernel).
#[test]
fn an_edit_of_one_kernel_re_verifies_only_that_kernel() {
    let cfg = kernel_config();
    let whole = |text: &str| crate::pipeline::verify_source(ivl::diag::SourceFile::new("two.kbpl", text), &cfg);
    let mut s = Session::new(&cfg);
    let first = s.verify("two.kbpl", TWO_KERNELS.to_string(), NEVER).expect("not cancelled");
    assert_eq!((first.units, first.verified_units), (2, 2));
    same_but_houdini_counts(&first.report, &whole(TWO_KERNELS), "two kernels");
    assert_eq!(first.report.verdict, Verdict::Verified, "{:?}", first.report.errors);

    // The second kernel's write made racy: only it is verified again. The race is the whole
    // run's; there Houdini stopped at it, leaving `triangle` inconclusive, here `triangle` is
    // verified on its own.
    let racy = TWO_KERNELS.replace("B[j * group_size_x + local_id_x] :=", "B[j] :=");
    let r = s.verify("two.kbpl", racy.clone(), NEVER).expect("not cancelled");
    assert_eq!(verdicts_run(&s), 1, "{:?}", s.executions());
    let cold = whole(&racy);
    assert_eq!((r.report.verdict, cold.verdict), (Verdict::Errors, Verdict::Errors));
    assert_eq!(located(&r.report), located(&cold));
    assert_eq!(r.report.extra["verified"], 1, "triangle");
    assert!(cold.errors.iter().any(|d| d.message.contains("Houdini stopped at an error elsewhere")));

    // Lines above the kernels: nothing is verified again, the race follows its line.
    let moved = format!("// a comment\n{racy}");
    let r = s.verify("two.kbpl", moved.clone(), NEVER).expect("not cancelled");
    assert_eq!(verdicts_run(&s), 0, "{:?}", s.executions());
    assert_eq!(located(&r.report), located(&whole(&moved)));
    assert_eq!(error_lines(&r.report), [22]);
}

/// The errors but timeouts, where they are: kind, span and related spans.
fn located(r: &FileReport) -> Vec<(String, ivl::ast::Span, Vec<ivl::ast::Span>)> {
    let errors = r.errors.iter().filter(|d| d.kind != ivl::diag::ErrorKind::Timeout);
    errors.map(|d| (d.kind.as_str().to_string(), d.primary.span, d.related.iter().map(|l| l.span).collect())).collect()
}
