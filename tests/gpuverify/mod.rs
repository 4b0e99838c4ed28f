//! GPUVerify's test suite as a conformance test for kivl (issue 17): reads each kernel's header
//! the way GPUVerify's runner `gvtester.py` does, gives `kivl verify` GPUVerify's arguments as
//! they are (issue 43), runs kivl under a wall-clock limit and scores the outcome against
//! GPUVerify's expectation.
//!
//! Pure parts (header, arguments, scoring) are separate from the process handling so that
//! the unit tests of `tests/gpuverify_suite.rs` can check them on real headers without a kivl run.

// The suite test and the benchmark each use a part of these helpers.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// GPUVerify's exit codes that a test may expect (`GPUVerifyScript/error_codes.py`), and the
/// kivl exit status (docs/kbpl.md §8) that corresponds to each. Failures of GPUVerify's stages before
/// verification (clang, opt, Bugle, VC generation, its command line) are kivl's "invalid input
/// or usage"; codes without a kivl counterpart (`TIMEOUT`, `CTRL_C`, ...) are `None`.
pub const XFAIL_CODES: &[(&str, Option<i32>)] = &[
    ("COMMAND_LINE_ERROR", Some(2)),
    ("CLANG_ERROR", Some(2)),
    ("OPT_ERROR", Some(2)),
    ("BUGLE_ERROR", Some(2)),
    ("GPUVERIFYVCGEN_ERROR", Some(2)),
    ("NOT_ALL_VERIFIED", Some(1)),
    ("TIMEOUT", None),
    ("CTRL_C", None),
    ("GPUVERIFY_ERROR", None),
    ("CONFIGURATION_ERROR", None),
    ("JSON_ERROR", None),
    ("BOOGIE_INTERNAL_ERROR", None),
    ("BOOGIE_OTHER_ERROR", None),
];

/// What GPUVerify should answer on a kernel (line 1 of its header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Pass,
    /// The upper-cased error code of `//xfail:CODE`.
    Xfail(String),
}

impl Expect {
    /// The kivl exit status this expectation stands for; `None` when kivl has no counterpart.
    pub fn exit_code(&self) -> Option<i32> {
        match self {
            Expect::Pass => Some(0),
            Expect::Xfail(code) => XFAIL_CODES.iter().find(|(c, _)| c == code).and_then(|(_, e)| *e),
        }
    }

    pub fn label(&self) -> String {
        match self {
            Expect::Pass => "pass".into(),
            Expect::Xfail(c) => format!("xfail:{c}"),
        }
    }
}

/// Tests whose expectation holds only under GPUVerify's modular verification (`--no-inline`: each
/// procedure verified on its own, from its contract), which kivl does not do: kivl inlines calls
/// into the kernel, so it finds the bugs that a run of the kernel can reach. Each entry is a
/// `//xfail:NOT_ALL_VERIFIED` kernel whose bug no run of it reaches, checked by reading the
/// kernel; it is skipped with the reason rather than listed in the baseline, because a buggy
/// kernel that kivl verifies is a failure no baseline excuses.
pub const MODULAR_ONLY: &[(&str, &str)] =
    &[("OpenCL/reducedstrengthnonloopbug/kernel.cl", "the race is in a function the kernel never calls")];

/// Why the test of the kernel at `path` (relative to the suite) does not apply to kivl, if so.
pub fn modular_only(path: &str) -> Option<String> {
    MODULAR_ONLY
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, why)| format!("needs GPUVerify's modular verification (--no-inline): {why}"))
}

/// `//xfail:BUGLE_ERROR` tests of a limitation of GPUVerify's translator that kivl's front end
/// does not have: kivl gives the kernel a verdict, checked by reading the kernel. Skipped with
/// the reason (the expected tool error is no property of the kernel).
pub const BEYOND_BUGLE: &[(&str, &str)] = &[(
    "CUDA/memset/unhandled_varval/kernel.cu",
    "Bugle rejects a memset of a value not known at compile time; kivl translates it (the byte \
     repeated in each element) and verifies the kernel, race-free as its comment says",
)];

/// Why the test of the kernel at `path` expects a tool error kivl does not make, if so.
pub fn beyond_bugle(path: &str) -> Option<String> {
    BEYOND_BUGLE.iter().find(|(p, _)| *p == path).map(|(_, why)| format!("a limitation of GPUVerify's Bugle: {why}"))
}

/// `//xfail:NOT_ALL_VERIFIED` tests of a precision loss of one of GPUVerify's options that kivl
/// does not have: the kernel has no bug (checked by reading it), and kivl verifies it. Skipped
/// with the reason, since a kernel the suite expects to fail that kivl verifies is otherwise a
/// failure no baseline excuses.
pub const MORE_PRECISE: &[(&str, &str)] = &[(
    "OpenCL/asymmetric_asserts/fail/kernel.cl",
    "the kernel is asymmetric_asserts/pass (which GPUVerify verifies) with --asymmetric-asserts, under \
     which GPUVerify checks, and so assumes, the loop invariant `i >= 0` for one thread only and cannot \
     prove the other thread's `i >= 0`; kivl checks invariants for both threads (docs/kbpl.md §8.1)",
)];

/// Why the kernel at `path` is expected to fail only by an imprecision kivl does not have, if so.
pub fn more_precise(path: &str) -> Option<String> {
    MORE_PRECISE.iter().find(|(p, _)| *p == path).map(|(_, why)| format!("an imprecision of GPUVerify's: {why}"))
}

/// A kernel's test header, as `gvtester.py` reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub expect: Expect,
    /// Line 2 after `//`, split on whitespace, `${KERNEL_DIR}` substituted.
    pub args: Vec<String>,
    /// The `//` lines after line 2, without the `//` and not trimmed (gvtester keeps spaces).
    pub regexes: Vec<String>,
}

/// Parses a header like `gvtester.py`: line 1 must match `^//(pass|xfail:([A-Z_]+))` ignoring
/// case (anything may follow), the code must be one GPUVerify knows; line 2 must start with `//`;
/// then every following line that starts with `//` and has more than those two characters is a
/// regular expression, up to the first line that is not. An `Err` says which rule the text
/// breaks (the suite has none such, but a header is data and must not panic the harness).
pub fn parse_header(text: &str, kernel_dir: &str) -> Result<Header, String> {
    // gvtester opens the file with universal newlines: `\r\n` and `\r` end lines too.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let outcome = first.strip_prefix("//").ok_or("line 1 should say `//pass` or `//xfail:<ERROR_CODE>`")?;
    let expect = if outcome.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("pass")) {
        Expect::Pass
    } else if outcome.get(..6).is_some_and(|p| p.eq_ignore_ascii_case("xfail:")) {
        let code: String = outcome[6..]
            .chars()
            .take_while(|c| c.is_ascii_alphabetic() || *c == '_')
            .collect::<String>()
            .to_uppercase();
        if code.is_empty() {
            return Err("line 1: `//xfail:` without an error code".into());
        }
        if !XFAIL_CODES.iter().any(|(c, _)| *c == code) {
            return Err(format!("line 1: `{code}` is not a GPUVerify error code"));
        }
        Expect::Xfail(code)
    } else {
        return Err("line 1 should say `//pass` or `//xfail:<ERROR_CODE>`".into());
    };
    let second = lines.next().unwrap_or("");
    let args_text = second.strip_prefix("//").ok_or("line 2 should start with `//` and then the arguments")?;
    let args = args_text.split_whitespace().map(|a| substitute_kernel_dir(a, kernel_dir)).collect();
    let regexes = lines.map_while(|l| l.strip_prefix("//").filter(|r| !r.is_empty())).map(String::from).collect();
    Ok(Header { expect, args, regexes })
}

/// gvtester's one substitution (`string.Template`): `${KERNEL_DIR}` and `$KERNEL_DIR`.
fn substitute_kernel_dir(arg: &str, kernel_dir: &str) -> String {
    arg.replace("${KERNEL_DIR}", kernel_dir).replace("$KERNEL_DIR", kernel_dir)
}

/// The source lines that a test's regular expressions require an error at: every
/// `kernel.cl:LINE` / `kernel.cu:LINE` (also written `kernel\.cl:LINE`) in them. Regexes whose
/// line is itself a pattern (`kernel.cl:[\d]+`) name no line.
pub fn regex_lines(regexes: &[String]) -> Vec<u64> {
    let mut out = Vec::new();
    for r in regexes {
        let mut rest = r.as_str();
        while let Some(i) = rest.find("kernel") {
            rest = &rest[i + "kernel".len()..];
            let after_dot = rest.strip_prefix("\\.").or_else(|| rest.strip_prefix('.'));
            let Some(tail) = after_dot.and_then(|t| t.strip_prefix("cl:").or_else(|| t.strip_prefix("cu:"))) else {
                continue;
            };
            let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse() {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
    }
    out
}

/// The kivl error kinds (docs/kbpl.md §8) that a test's regular expressions require, from GPUVerify's
/// wording: races, assertions and barrier divergence. GPUVerify's other errors (null pointers,
/// array bounds, invariants) have no kivl kind of the same extent, so they require none.
pub fn regex_kinds(regexes: &[String]) -> Vec<&'static str> {
    const WORDING: &[(&str, &str)] = &[
        (" race", "race"),
        ("assertion might not hold", "assertion"),
        ("barrier may be reached by non-uniform control flow", "divergence"),
    ];
    let mut out = Vec::new();
    for (words, kind) in WORDING {
        if regexes.iter().any(|r| r.contains(words) || r.starts_with(words.trim_start())) && !out.contains(kind) {
            out.push(*kind);
        }
    }
    out
}

/// `kivl verify` on one kernel with its GPUVerify arguments `gv` exactly as line 2 has them
/// (issue 43: no mapping; kivl reads GPUVerify's options itself): JSON, a time limit per search
/// (`--search-timeout`, no limit on the whole file), one solver thread (two kernels run at once
/// on two cores), enough errors reported for the regexes' lines to be among them.
pub fn verify_args(gv: &[String], timeout: u64, file: &str) -> Vec<String> {
    let mut args: Vec<String> =
        ["verify", "--format", "json", "--jobs", "1", "--error-limit", "20", "--timeout", "0", "--search-timeout"]
            .map(String::from)
            .to_vec();
    args.push(timeout.to_string());
    args.extend(gv.iter().cloned());
    args.push(file.to_string());
    args
}

/// `kivl verify --dry-run` with the GPUVerify arguments `gv`: whether kivl accepts them.
pub fn dry_run_args(gv: &[String], file: &str) -> Vec<String> {
    let mut args = vec!["verify".to_string(), "--dry-run".to_string()];
    args.extend(gv.iter().cloned());
    args.push(file.to_string());
    args
}

/// GPUVerify's options that steer only verification (inference, bounded checking, output),
/// which `kivl transform` does not take: left out of the benchmark's front-end run.
const VERIFY_ONLY: [&str; 8] =
    ["--no-infer", "--infer-info", "--loop-unwind", "--kernel-args", "--time", "--verbose", "--silent", "--findbugs"];

/// `kivl transform --emit kbpl` with the arguments of `gv` that shape the program.
pub fn frontend_args(gv: &[String], file: &str) -> Vec<String> {
    let mut args: Vec<String> = ["transform", file, "--emit", "kbpl"].map(String::from).to_vec();
    let shapes = |a: &&String| !VERIFY_ONLY.iter().any(|o| a.split('=').next() == Some(*o));
    args.extend(gv.iter().filter(shapes).cloned());
    args
}

/// The wall-clock limit of a run with `--timeout S`: Houdini makes several checks, and the front
/// end and process start cost time too.
pub fn wall_limit(timeout: u64) -> Duration {
    Duration::from_secs(2 * timeout + 30)
}

/// The kivl binary scored: this build's, or `KIVL_SUITE_BIN` (to score another build, say a
/// branch's, against this baseline).
pub fn kivl_bin() -> PathBuf {
    std::env::var_os("KIVL_SUITE_BIN").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_kivl")))
}

/// One kivl process under a wall-clock limit.
pub struct Outcome {
    /// `None`: killed at the limit.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `kivl ARGS` in `cwd` (where gvtester runs GPUVerify: the kernel's folder), in its own process group and kills the group at `limit` (the front end runs
/// clang as a child, which must not outlive a killed kivl).
pub fn run_kivl(args: &[String], cwd: &Path, limit: Duration) -> Outcome {
    use std::io::Read;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Command, Stdio};
    let start = Instant::now();
    let mut child = match Command::new(kivl_bin())
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            return Outcome { code: Some(-1), stdout: String::new(), stderr: e.to_string(), elapsed: start.elapsed() }
        }
    };
    // Readers on threads: a child that fills a pipe must not block while we wait for it.
    let reader = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = reader(Box::new(child.stdout.take().expect("piped stdout")));
    let err = reader(Box::new(child.stderr.take().expect("piped stderr")));
    let code = loop {
        match child.try_wait() {
            // A kivl killed by a signal (a crash) gets the shell's status, 128 + the signal.
            Ok(Some(status)) => break Some(status.code().unwrap_or(128 + status.signal().unwrap_or(0))),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                // SAFETY: signals the process group this function created (the group id is the
                // child's pid, which is not reaped yet, so it cannot have been reused).
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                let _ = child.wait();
                break None;
            }
        }
    };
    let elapsed = start.elapsed();
    Outcome { code, stdout: out.join().unwrap_or_default(), stderr: err.join().unwrap_or_default(), elapsed }
}

/// The score of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Passed,
    /// `unsound`: a `//xfail:NOT_ALL_VERIFIED` kernel that kivl verified, which no baseline
    /// entry excuses.
    Failed {
        reason: String,
        unsound: bool,
    },
    Skipped(String),
}

/// One line of text, at most `n` characters: reasons go on one line of the baseline.
pub fn one_line(s: &str, n: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() <= n {
        s
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// What kivl said, in a few words: the first error's kind and message from the JSON, else the
/// first line of stderr.
fn first_error(json: &Value, stderr: &str) -> String {
    let file = &json["files"][0];
    if let Some(e) = file["errors"].as_array().and_then(|a| a.first()) {
        let line = e["locations"][0]["line"].as_u64().map(|l| format!(" (line {l})")).unwrap_or_default();
        return format!("{}: {}{line}", e["kind"].as_str().unwrap_or("?"), e["message"].as_str().unwrap_or(""));
    }
    let line = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no output");
    line.trim().to_string()
}

/// The kind of every error, in order, without repetitions.
fn error_kinds(json: &Value) -> Vec<String> {
    let mut kinds: Vec<String> = Vec::new();
    for e in json["files"][0]["errors"].as_array().into_iter().flatten() {
        let k = e["kind"].as_str().unwrap_or("?").to_string();
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    kinds
}

/// Every line any error's locations name.
fn error_lines(json: &Value) -> Vec<u64> {
    let errors = json["files"][0]["errors"].as_array().cloned().unwrap_or_default();
    let mut lines: Vec<u64> = errors
        .iter()
        .flat_map(|e| e["locations"].as_array().cloned().unwrap_or_default())
        .filter_map(|l| l["line"].as_u64())
        .collect();
    lines.sort();
    lines.dedup();
    lines
}

/// Scores one run against the header: the exit status must be the expected one, and for
/// `NOT_ALL_VERIFIED` every line the regexes name must be among kivl's error locations, and every
/// kind of error they name (race, assertion, divergence) among kivl's errors.
pub fn score(header: &Header, out: &Outcome, limit: Duration) -> Score {
    let Some(want) = header.expect.exit_code() else {
        return Score::Skipped(format!("{} has no kivl counterpart", header.expect.label()));
    };
    let Some(code) = out.code else {
        return Score::Failed { reason: format!("killed after {} s", limit.as_secs()), unsound: false };
    };
    let json: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
    if code != want {
        let unsound = code == 0 && header.expect == Expect::Xfail("NOT_ALL_VERIFIED".into());
        let what = match code {
            0 => "verified".to_string(),
            3 => format!("inconclusive: {}", first_error(&json, &out.stderr)),
            _ => first_error(&json, &out.stderr),
        };
        let prefix = if unsound { "UNSOUND: " } else { "" };
        // GPUVerify verifies calls modularly under `--no-inline`, kivl inlines them: an error
        // that only the modular abstraction reports is the first thing to look for.
        let modular = if unsound && header.args.iter().any(|a| a == "--no-inline") {
            " (the test has --no-inline; kivl inlines calls)"
        } else {
            ""
        };
        let reason = format!("{prefix}exit {code}, want {want}: {what}{modular}");
        return Score::Failed { reason: one_line(&reason, 200), unsound };
    }
    if want == 1 {
        let got = error_lines(&json);
        let missing: Vec<u64> = regex_lines(&header.regexes).into_iter().filter(|l| !got.contains(l)).collect();
        if !missing.is_empty() {
            let reason = format!("no error at line {missing:?} (kivl's errors are at {got:?})");
            return Score::Failed { reason: one_line(&reason, 200), unsound: false };
        }
        let kinds = error_kinds(&json);
        let missing: Vec<&str> =
            regex_kinds(&header.regexes).into_iter().filter(|k| !kinds.iter().any(|g| g == k)).collect();
        if !missing.is_empty() {
            let reason = format!("no {} error (kivl's errors: {})", missing.join(" or "), kinds.join(", "));
            return Score::Failed { reason: one_line(&reason, 200), unsound: false };
        }
    }
    Score::Passed
}

/// The suite's kernels (`OpenCL/**/kernel.cl`, `CUDA/**/kernel.cu`), sorted by path.
pub fn kernels(suite: &Path) -> Vec<PathBuf> {
    let is_kernel = |p: &Path| p.file_name().is_some_and(|n| n == "kernel.cl" || n == "kernel.cu");
    let mut out: Vec<PathBuf> =
        ["OpenCL", "CUDA"].iter().flat_map(|lang| ivl::corpus::files_where(&suite.join(lang), is_kernel)).collect();
    out.sort();
    out
}

/// The known failures: `PATH REASON` per line (PATH relative to the suite), `#` comments.
pub fn read_baseline(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((p, r)) => (p.to_string(), r.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}
