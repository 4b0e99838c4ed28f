//! External conformance (issue 17): kivl on GPUVerify's own test suite, the 669 kernels of
//! `testsuite/{OpenCL,CUDA}/**/kernel.{cl,cu}` in `../shared/gpuverify-testsuite/` (not copied
//! into the project; `KIVL_GPUVERIFY_SUITE` names another copy's `testsuite/`). Each kernel's
//! header says what GPUVerify must answer; kivl gets its GPUVerify arguments (line 2) as they
//! are, `${KERNEL_DIR}` substituted (`tests/gpuverify/mod.rs`).
//!
//! `gpuverify_suite` fails on a regression: a kernel that fails and is not in the baseline of
//! known failures (`tests/gpuverify-suite-baseline.txt`), or a `//xfail:NOT_ALL_VERIFIED`
//! kernel that kivl verifies, which no baseline excuses. It prints baseline entries that now
//! pass, so the baseline can be tightened, and writes the per-kernel table to
//! `target/gpuverify-suite.txt`. Knobs (environment; `scripts/gpuverify-suite.sh` sets them):
//! - `KIVL_SUITE_BLESS=1` rewrites the baseline from this run's failures, with their reasons;
//! - `KIVL_SUITE_SAMPLE=K` runs every K-th kernel by sorted path (default [`CI_SAMPLE`]);
//! - `KIVL_SUITE_FILTER=TEXT` runs the kernels whose path contains TEXT;
//! - `KIVL_SUITE_TIMEOUT=S` is kivl's `--search-timeout` (default 30; the process is killed at 2S+30);
//! - `KIVL_SUITE_BENCH=1` also times the front end alone (`kivl transform --emit kbpl`);
//! - `KIVL_SUITE_BIN=PATH` scores another kivl binary than this build's.

mod common;
mod gpuverify;

use common::{par_map, repo_dir};
use gpuverify::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const BASELINE: &str = "tests/gpuverify-suite-baseline.txt";

/// The stride of the sample `cargo test` runs when `KIVL_SUITE_SAMPLE` is not set: every
/// kernel. CI's budget for this test is about 10 minutes on 2 cores; should the whole suite
/// take longer, raise this (2: every other kernel, by sorted path), and keep the whole suite
/// for `scripts/gpuverify-suite.sh`, which sets `KIVL_SUITE_SAMPLE=1`.
const CI_SAMPLE: u64 = 1;

/// CI's time budget for the run, in seconds (see [`CI_SAMPLE`]).
const CI_BUDGET: u64 = 600;

/// The suite's `testsuite/` folder, if it is there.
fn suite_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("KIVL_GPUVERIFY_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_dir("../shared/gpuverify-testsuite/testsuite"));
    // Absolute: kivl runs in each kernel's folder, as GPUVerify does under gvtester.
    dir.canonicalize().ok().filter(|d| d.is_dir())
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).filter(|&n| n > 0).unwrap_or(default)
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Where the table goes: the target directory this test binary was built in.
fn target_dir() -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_kivl"));
    bin.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_else(|| repo_dir("target"))
}

/// One kernel's result.
struct Row {
    /// Relative to the suite's `testsuite/`, as in the baseline.
    path: String,
    expect: String,
    score: Score,
    /// kivl verify's wall-clock time (front end included).
    verify: Duration,
    /// `kivl transform --emit kbpl` (front end alone), when benchmarking and it succeeded.
    frontend: Option<Duration>,
}

/// Reads, maps, runs and scores one kernel.
fn run_kernel(suite: &Path, file: &Path, timeout: u64, bench: bool) -> Row {
    let path = file.strip_prefix(suite).unwrap_or(file).to_string_lossy().into_owned();
    let dir = file.parent().unwrap_or(suite);
    let text = String::from_utf8_lossy(&std::fs::read(file).unwrap_or_default()).into_owned();
    let row = |expect: String, score, verify, frontend| Row { path: path.clone(), expect, score, verify, frontend };
    let header = match parse_header(&text, &dir.to_string_lossy()) {
        Ok(h) => h,
        Err(e) => return row("?".into(), Score::Skipped(format!("header: {e}")), Duration::ZERO, None),
    };
    let expect = header.expect.label();
    if let Some(why) = modular_only(&path).or_else(|| beyond_bugle(&path)).or_else(|| more_precise(&path)) {
        return row(expect, Score::Skipped(why), Duration::ZERO, None);
    }
    if header.expect.exit_code().is_none() {
        let why = format!("{expect} has no kivl counterpart");
        return row(expect, Score::Skipped(why), Duration::ZERO, None);
    }
    let file_arg = file.to_string_lossy().into_owned();
    let args = verify_args(&header.args, timeout, &file_arg);
    let limit = wall_limit(timeout);
    let out = run_kivl(&args, dir, limit);
    let score = score(&header, &out, limit);
    let frontend = bench.then(|| {
        let fe = run_kivl(&frontend_args(&header.args, &file_arg), dir, limit);
        (fe.code == Some(0)).then_some(fe.elapsed)
    });
    row(expect, score, out.elapsed, frontend.flatten())
}

fn secs(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

/// Total, median, 90th percentile and maximum of some times.
fn stats(mut v: Vec<Duration>) -> String {
    v.sort();
    let at = |q: f64| v.get(((v.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or_default();
    let total: Duration = v.iter().sum();
    format!("total {} s, median {} s, p90 {} s, max {} s", secs(total), secs(at(0.5)), secs(at(0.9)), secs(at(1.0)))
}

/// The front end's time against verification's, over the kernels where both were measured.
fn bench_summary(rows: &[Row]) -> String {
    let pairs: Vec<(Duration, Duration)> = rows.iter().filter_map(|r| Some((r.frontend?, r.verify))).collect();
    if pairs.is_empty() {
        return "front end: no kernel translated (`kivl transform --emit kbpl` failed on every one)\n".into();
    }
    let fe: Duration = pairs.iter().map(|p| p.0).sum();
    let ve: Duration = pairs.iter().map(|p| p.1).sum();
    format!(
        "front end (clang + translation: kivl transform --emit kbpl) over {} kernels: {}\n\
         kivl verify (front end included): {}\n\
         the front end's share of kivl verify's time: {:.0}%\n",
        pairs.len(),
        stats(pairs.iter().map(|p| p.0).collect()),
        stats(pairs.iter().map(|p| p.1).collect()),
        100.0 * fe.as_secs_f64() / ve.as_secs_f64().max(1e-9),
    )
}

/// The per-kernel table: result, times, expectation, path, reason.
fn table(rows: &[Row], summary: &str) -> String {
    let mut s = format!(
        "{:<6}  {:>8}  {:>10}  {:<26}  {:<90}  reason\n",
        "result", "verify_s", "frontend_s", "expected", "kernel"
    );
    for r in rows {
        let (res, why) = match &r.score {
            Score::Passed => ("pass", ""),
            Score::Failed { reason, .. } => ("FAIL", reason.as_str()),
            Score::Skipped(why) => ("skip", why.as_str()),
        };
        let fe = r.frontend.map(secs).unwrap_or_else(|| "-".into());
        let line = format!("{res:<6}  {:>8}  {fe:>10}  {:<26}  {:<90}  {why}", secs(r.verify), r.expect, r.path);
        let _ = writeln!(s, "{}", line.trim_end());
    }
    s.push_str(summary);
    s
}

/// The baseline after a run: this run's failures, and the old entries of kernels it did not run.
fn blessed(old: &[(String, String)], rows: &[Row]) -> String {
    let ran: std::collections::HashSet<&str> = rows.iter().map(|r| r.path.as_str()).collect();
    let mut entries: BTreeMap<String, String> =
        old.iter().filter(|(p, _)| !ran.contains(p.as_str())).map(|(p, r)| (p.clone(), r.clone())).collect();
    for r in rows {
        if let Score::Failed { reason, .. } = &r.score {
            entries.insert(r.path.clone(), reason.clone());
        }
    }
    let mut s = String::from(
        "# Known failures of kivl on GPUVerify's test suite (tests/gpuverify_suite.rs): one kernel per line,\n\
         # its path under testsuite/ and why it fails. Regenerate: scripts/gpuverify-suite.sh --bless\n",
    );
    for (p, r) in entries {
        let _ = writeln!(s, "{p} {r}");
    }
    s
}

/// Runs again, one at a time and with three times the limit, the kernels outside the baseline
/// that timed out. A timeout says nothing about a verdict, and on a loaded machine (two jobs on
/// two cores beside other work) a kernel that takes 10 s alone can exceed 30 s: without this the
/// run's outcome would depend on the machine's load. A kernel still timing out stays a failure.
fn retry_timeouts(suite: &Path, rows: &mut [Row], baseline: &[(String, String)], timeout: u64, bench: bool) {
    for r in rows.iter_mut() {
        let timed_out = matches!(&r.score, Score::Failed { reason, unsound: false } if reason.contains("timed out") || reason.starts_with("killed after"));
        if timed_out && !baseline.iter().any(|(p, _)| *p == r.path) {
            *r = run_kernel(suite, &suite.join(&r.path), 3 * timeout, bench);
        }
    }
}

#[test]
fn gpuverify_suite() {
    let Some(suite) = suite_dir() else {
        println!("skipped: GPUVerify's test suite not found (../shared/gpuverify-testsuite/testsuite or $KIVL_GPUVERIFY_SUITE)");
        return;
    };
    let stride = env_u64("KIVL_SUITE_SAMPLE", CI_SAMPLE) as usize;
    let filter = std::env::var("KIVL_SUITE_FILTER").unwrap_or_default();
    let timeout = env_u64("KIVL_SUITE_TIMEOUT", 30);
    let bench = env_flag("KIVL_SUITE_BENCH");
    let all = kernels(&suite);
    let chosen: Vec<PathBuf> = all
        .iter()
        .enumerate()
        .filter(|(i, p)| i % stride == 0 && p.to_string_lossy().contains(&filter))
        .map(|(_, p)| p.clone())
        .collect();
    let start = Instant::now();
    let mut rows = par_map(&chosen, |f| run_kernel(&suite, f, timeout, bench));
    let wall = start.elapsed();
    let baseline_path = repo_dir(BASELINE);
    let old = read_baseline(&std::fs::read_to_string(&baseline_path).unwrap_or_default());
    retry_timeouts(&suite, &mut rows, &old, timeout, bench);

    let count = |f: fn(&Score) -> bool| rows.iter().filter(|r| f(&r.score)).count();
    let passed = count(|s| matches!(s, Score::Passed));
    let failed = count(|s| matches!(s, Score::Failed { .. }));
    let skipped = count(|s| matches!(s, Score::Skipped(_)));
    let mut summary = format!(
        "{passed} passed, {failed} failed, {skipped} skipped ({} of {} kernels, {} s on 2 jobs)\n",
        rows.len(),
        all.len(),
        wall.as_secs()
    );
    if bench {
        summary.push_str(&bench_summary(&rows));
    }
    if wall.as_secs() > CI_BUDGET && stride as u64 == CI_SAMPLE {
        let _ = writeln!(summary, "note: over CI's {CI_BUDGET} s budget; raise CI_SAMPLE in tests/gpuverify_suite.rs");
    }
    let out = target_dir().join("gpuverify-suite.txt");
    let written = std::fs::write(&out, table(&rows, &summary));
    print!("{summary}");
    match written {
        Ok(()) => println!("per-kernel table: {}", out.display()),
        Err(e) => println!("per-kernel table not written to {}: {e}", out.display()),
    }

    if env_flag("KIVL_SUITE_BLESS") {
        std::fs::write(&baseline_path, blessed(&old, &rows)).expect("writing the baseline");
        println!("baseline rewritten: {}", baseline_path.display());
    }
    let known: BTreeMap<&str, &str> = old.iter().map(|(p, r)| (p.as_str(), r.as_str())).collect();
    let mut regressions = Vec::new();
    let mut unsound = Vec::new();
    let mut now_pass = Vec::new();
    for r in &rows {
        match &r.score {
            Score::Failed { reason, unsound: true } => unsound.push(format!("{} {reason}", r.path)),
            Score::Failed { reason, .. } if !known.contains_key(r.path.as_str()) => {
                regressions.push(format!("{} {reason}", r.path))
            }
            Score::Passed if known.contains_key(r.path.as_str()) => now_pass.push(r.path.clone()),
            _ => {}
        }
    }
    let missing: Vec<&str> = known.keys().copied().filter(|p| !suite.join(p).is_file()).collect();
    if !now_pass.is_empty() {
        println!("{} baseline entries now pass (tighten the baseline with --bless):", now_pass.len());
        now_pass.iter().for_each(|p| println!("  {p}"));
    }
    if !missing.is_empty() {
        println!("baseline entries naming no kernel of the suite: {missing:?}");
    }
    assert!(unsound.is_empty(), "kivl verified kernels GPUVerify's suite expects to fail:\n{}", unsound.join("\n"));
    assert!(
        regressions.is_empty() || env_flag("KIVL_SUITE_BLESS"),
        "{} kernels fail and are not in {BASELINE}:\n{}",
        regressions.len(),
        regressions.join("\n")
    );
}

// ---- The header parser and the argument mapping, on real headers of the suite. ----

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn header_of_a_race_with_its_regexes() {
    // OpenCL/misc/fail/miscfail8/kernel.cl
    let text = "//xfail:NOT_ALL_VERIFIED\n//--local_size=16 --num_groups=2 --no-inline\n\
                //kernel.cl: error: possible read-write race on p\n\
                //Write by work item [\\d]+ with local id [\\d]+ in work group \\d, .+kernel.cl:18:[\\d]+\n\
                //p\\[tid \\+ 1\\] = tid;\n\n#define N 16\n//not a regex: after the blank line\n";
    let h = parse_header(text, "/k").unwrap();
    assert_eq!(h.expect, Expect::Xfail("NOT_ALL_VERIFIED".into()));
    assert_eq!(h.expect.exit_code(), Some(1));
    assert_eq!(h.args, strings(&["--local_size=16", "--num_groups=2", "--no-inline"]));
    assert_eq!(h.regexes.len(), 3);
    assert_eq!(h.regexes[2], "p\\[tid \\+ 1\\] = tid;");
    assert_eq!(regex_lines(&h.regexes), vec![18]);
    assert_eq!(
        verify_args(&h.args, 30, "k.cl")[11..],
        strings(&["--local_size=16", "--num_groups=2", "--no-inline", "k.cl"]),
        "kivl gets line 2 as it is"
    );
}

#[test]
fn header_case_crlf_and_empty_regex_line() {
    // OpenCL/get_global_offset/kernel.cl says `//PASS`; gvtester ignores case and reads DOS files.
    let h =
        parse_header("//PASS\r\n//--local_size=64 --num_groups=64 --global_offset=64\r\n//\r\n//x\r\n", "/k").unwrap();
    assert_eq!(h.expect, Expect::Pass);
    assert_eq!(h.args.len(), 3);
    assert!(h.regexes.is_empty(), "a bare `//` ends the regexes: {:?}", h.regexes);
    let h = parse_header("//xfail:not_all_verified trailing words\n//\n", "/k").unwrap();
    assert_eq!(h.expect, Expect::Xfail("NOT_ALL_VERIFIED".into()));
    assert!(h.args.is_empty());
    // A header with no line 2 at all still has an (empty) argument line only if it starts `//`.
    assert!(parse_header("//pass", "/k").is_err());
}

#[test]
fn odd_headers_are_errors_not_panics() {
    for text in ["", "\n", "pass\n//\n", "//xfail:\n//\n", "//xfail:NOPE\n//\n", "//pass\n--local_size=1\n", "//é\n"] {
        assert!(parse_header(text, "/k").is_err(), "{text:?} should not parse");
    }
    assert_eq!(parse_header("//passé\n//\n", "/k").map(|h| h.expect), Ok(Expect::Pass));
}

#[test]
fn kernel_dir_is_substituted() {
    // CUDA/function_pointers/funcptr_to_ptr/kernel.cu
    let h = parse_header(
        "//pass\n//--blockDim=1024 --gridDim=1 --boogie-file=${KERNEL_DIR}/axioms.bpl -I$KERNEL_DIR\n",
        "/s/k",
    )
    .unwrap();
    assert_eq!(h.args[2], "--boogie-file=/s/k/axioms.bpl");
    assert_eq!(h.args[3], "-I/s/k");
}

#[test]
fn the_front_end_run_leaves_out_verification_options() {
    let gv = strings(&["--local_size=8", "--no-infer", "--loop-unwind=2", "--kernel-args=foo,1", "--only-log", "-DX"]);
    assert_eq!(
        frontend_args(&gv, "k.cl"),
        strings(&["transform", "k.cl", "--emit", "kbpl", "--local_size=8", "--only-log", "-DX"])
    );
}

#[test]
fn regex_lines_read_the_suites_spellings() {
    let r = strings(&[
        "kernel.cl:12:[\\d]+:[\\s]+error:[\\s]+this assertion might not hold",
        "Write by thread .+kernel\\.cu:8:21:",
        "kernel.cl:7:(3|5)",
        "kernel.cl:[\\s]+error:[\\s]+possible write-write race on p\\[[\\d]+]",
        "Read by work item [\\d]+ .+kernel.cl:12:[\\d]+",
    ]);
    assert_eq!(regex_lines(&r), vec![12, 8, 7]);
    assert_eq!(regex_kinds(&r), vec!["race", "assertion"]);
    let r = strings(&["kernel.cl:9:5:[\\s]+error:[\\s]+barrier may be reached by non-uniform control flow", "race"]);
    assert_eq!(regex_kinds(&r), vec!["race", "divergence"]);
    assert!(regex_kinds(&strings(&["error: possible null pointer access for work item"])).is_empty());
}

/// A finished run with this exit status and JSON errors at these lines.
fn outcome(code: i32, lines: &[u64]) -> Outcome {
    let errors: Vec<_> = lines
        .iter()
        .map(|l| serde_json::json!({"kind": "race", "message": "possible race", "locations": [{"line": l, "column": 1, "label": ""}]}))
        .collect();
    let json = serde_json::json!({"files": [{"file": "kernel.cl", "verdict": "errors", "errors": errors}]});
    Outcome { code: Some(code), stdout: json.to_string(), stderr: String::new(), elapsed: Duration::ZERO }
}

#[test]
fn scoring() {
    let limit = Duration::from_secs(90);
    let header = |text: &str| parse_header(text, "/k").unwrap();
    let race = header("//xfail:NOT_ALL_VERIFIED\n//--local_size=16\n//.+kernel.cl:18:[\\d]+\n");
    assert_eq!(score(&race, &outcome(1, &[17, 18]), limit), Score::Passed);
    assert!(matches!(score(&race, &outcome(1, &[17]), limit), Score::Failed { unsound: false, .. }));
    // The regex names a race: an assertion at the right line is not it.
    let assertion = header("//xfail:NOT_ALL_VERIFIED\n//\n//kernel.cl: error: possible write-write race on p\n");
    let mut wrong = outcome(1, &[5]);
    wrong.stdout = wrong.stdout.replace("\"race\"", "\"assertion\"");
    match score(&assertion, &wrong, limit) {
        Score::Failed { reason, .. } => assert_eq!(reason, "no race error (kivl's errors: assertion)"),
        s => panic!("{s:?}"),
    }
    assert_eq!(score(&assertion, &outcome(1, &[5]), limit), Score::Passed);
    // Verifying a kernel with a bug is never excused.
    assert!(matches!(score(&race, &outcome(0, &[]), limit), Score::Failed { unsound: true, .. }));
    let pass = header("//pass\n//--local_size=16\n");
    assert_eq!(score(&pass, &outcome(0, &[]), limit), Score::Passed);
    match score(&pass, &outcome(2, &[3]), limit) {
        Score::Failed { reason, unsound: false } => assert_eq!(reason, "exit 2, want 0: race: possible race (line 3)"),
        s => panic!("{s:?}"),
    }
    let killed = Outcome { code: None, ..outcome(0, &[]) };
    assert!(matches!(score(&pass, &killed, limit), Score::Failed { unsound: false, .. }));
    let clang = header("//xfail:CLANG_ERROR\n//--local_size=16\n");
    assert_eq!(score(&clang, &outcome(2, &[]), limit), Score::Passed);
    let timeout = header("//xfail:TIMEOUT\n//\n");
    assert!(matches!(score(&timeout, &outcome(3, &[]), limit), Score::Skipped(_)));
}

#[test]
fn baseline_lines() {
    let b = read_baseline("# comment\n\nOpenCL/a/kernel.cl exit 2, want 0: syntax\nCUDA/b/kernel.cu\n");
    assert_eq!(
        b,
        vec![("OpenCL/a/kernel.cl".into(), "exit 2, want 0: syntax".into()), ("CUDA/b/kernel.cu".into(), "".into())]
    );
}

/// The harness on a real kivl run, so that a change of kivl's JSON cannot make it score blind:
/// a `.kbpl` kernel with a race at line 9 (kivl takes it whatever the suite's languages).
#[test]
fn scores_a_real_kivl_run() {
    let file = repo_dir("examples/add_neighbour_race.kbpl");
    let dir = file.parent().unwrap();
    let header = |regex: &str| {
        parse_header(&format!("//xfail:NOT_ALL_VERIFIED\n//--local_size=4 --num_groups=2\n//{regex}\n"), "/k").unwrap()
    };
    let right = header("kernel.cl:9:[\\d]+: error: possible read-write race on A");
    let out = run_kivl(&verify_args(&right.args, 30, file.to_str().unwrap()), dir, wall_limit(30));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_eq!(score(&right, &out, wall_limit(30)), Score::Passed);
    let wrong_line = header("kernel.cl:8:[\\d]+: error: possible read-write race on A");
    match score(&wrong_line, &out, wall_limit(30)) {
        Score::Failed { reason, unsound: false } => {
            assert_eq!(reason, "no error at line [8] (kivl's errors are at [9])")
        }
        s => panic!("{s:?}"),
    }
    let wrong_kind = header("kernel.cl:9:[\\d]+: error: this assertion might not hold");
    assert!(matches!(score(&wrong_kind, &out, wall_limit(30)), Score::Failed { unsound: false, .. }));
}

/// A run past its wall-clock limit is killed and scored as a failure, not waited for.
#[test]
fn a_run_past_its_limit_is_killed() {
    let dir = std::env::temp_dir().join(format!("kivl-gpuverify-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hard.bpl");
    // Factoring a 60-bit semiprime: Z3 takes far longer than the limit.
    std::fs::write(&file, common::factoring_program(64, 4294967296, 1000000016000000063)).unwrap();
    let limit = Duration::from_secs(1);
    let out = run_kivl(&verify_args(&[], 0, file.to_str().unwrap()), &dir, limit);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.code, None);
    assert!(out.elapsed < Duration::from_secs(10), "killed late: {:?}", out.elapsed);
    let pass = parse_header("//pass\n//\n", "/k").unwrap();
    assert_eq!(score(&pass, &out, limit), Score::Failed { reason: "killed after 1 s".into(), unsound: false });
}

fn row(path: &str, score: Score, verify: u64, frontend: Option<u64>) -> Row {
    let secs = Duration::from_secs;
    Row { path: path.into(), expect: "pass".into(), score, verify: secs(verify), frontend: frontend.map(secs) }
}

#[test]
fn bless_keeps_the_entries_of_kernels_not_run() {
    let old = read_baseline("A/kernel.cl old reason\nB/kernel.cl old reason\nC/kernel.cl not run this time\n");
    let rows = [
        row("A/kernel.cl", Score::Passed, 1, None),
        row("B/kernel.cl", Score::Failed { reason: "new reason".into(), unsound: false }, 1, None),
        row("D/kernel.cl", Score::Skipped("lacks a flag".into()), 0, None),
    ];
    let new = read_baseline(&blessed(&old, &rows));
    let entry = |p: &str, r: &str| (p.to_string(), r.to_string());
    assert_eq!(new, vec![entry("B/kernel.cl", "new reason"), entry("C/kernel.cl", "not run this time")]);
}

#[test]
fn bench_compares_the_front_end_with_verification() {
    let rows = [
        row("A/kernel.cl", Score::Passed, 4, Some(1)),
        row("B/kernel.cl", Score::Passed, 4, Some(3)),
        row("C/kernel.cl", Score::Passed, 9, None),
    ];
    let s = bench_summary(&rows);
    assert!(s.contains("over 2 kernels: total 4.00 s, median 3.00 s, p90 3.00 s, max 3.00 s\n"), "{s}");
    assert!(s.contains("included): total 8.00 s, median 4.00 s, p90 4.00 s, max 4.00 s\n"), "{s}");
    assert!(s.contains("time: 50%"), "{s}");
    let t = table(&rows, &s);
    assert!(t.lines().nth(1).unwrap().starts_with("pass        4.00        1.00  pass"), "{t}");
    assert!(t.lines().nth(3).unwrap().contains("9.00           -"), "{t}");
}

/// Every header of the real suite parses, and the suite is whole.
#[test]
fn every_suite_header_parses() {
    let Some(suite) = suite_dir() else {
        println!("skipped: GPUVerify's test suite not found");
        return;
    };
    let all = kernels(&suite);
    assert!(all.len() >= 669, "GPUVerify's suite has 669 kernels, this copy {}", all.len());
    for f in &all {
        let text = std::fs::read_to_string(f).unwrap();
        parse_header(&text, "/k").unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
    for (path, _) in MORE_PRECISE {
        let text = std::fs::read_to_string(suite.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(parse_header(&text, "/k").unwrap().expect, Expect::Xfail("NOT_ALL_VERIFIED".into()), "{path}");
    }
    for (path, _) in MODULAR_ONLY {
        let text = std::fs::read_to_string(suite.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let h = parse_header(&text, "/k").unwrap();
        assert_eq!(h.expect, Expect::Xfail("NOT_ALL_VERIFIED".into()), "{path}");
        assert!(h.args.iter().any(|a| a == "--no-inline"), "{path} is verified modularly only with --no-inline");
    }
}

/// Issue 43: kivl accepts the GPUVerify arguments of every kernel of the suite as they are
/// (`kivl verify --dry-run`, which checks the command line and reads no kernel), and refuses
/// exactly those of the kernels that expect GPUVerify to refuse them
/// (`//xfail:COMMAND_LINE_ERROR`).
#[test]
fn every_suite_kernels_arguments_are_accepted() {
    let Some(suite) = suite_dir() else {
        println!("skipped: GPUVerify's test suite not found");
        return;
    };
    let all = kernels(&suite);
    let wrong: Vec<String> = par_map(&all, |f| {
        let dir = f.parent().unwrap_or(&suite);
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap_or_default()).into_owned();
        let h = parse_header(&text, &dir.to_string_lossy()).ok()?;
        let out = run_kivl(&dry_run_args(&h.args, &f.to_string_lossy()), dir, Duration::from_secs(60));
        let refuse = h.expect == Expect::Xfail("COMMAND_LINE_ERROR".into());
        let want = if refuse { 2 } else { 0 };
        let path = f.strip_prefix(&suite).unwrap_or(f).display();
        (out.code != Some(want))
            .then(|| format!("{path} ({}): exit {:?}: {}", h.args.join(" "), out.code, out.stderr.trim()))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(wrong.is_empty(), "{} of {} kernels' arguments:\n{}", wrong.len(), all.len(), wrong.join("\n"));
}
