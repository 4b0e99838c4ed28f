//! GPUVerify's test suite as a conformance test for kivl (issue 17): reads each kernel's header
//! the way GPUVerify's runner `gvtester.py` does, maps GPUVerify's arguments to `kivl verify`'s,
//! runs kivl under a wall-clock limit and scores the outcome against GPUVerify's expectation.
//!
//! Pure parts (header, argument mapping, scoring) are separate from the process handling so that
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

/// A grid dimension as GPUVerify writes it: `16`, `[16,16]`, `16,16`, or `*` (unconstrained).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dims {
    Fixed(Vec<u64>),
    Any,
}

pub fn parse_dims(v: &str) -> Result<Dims, String> {
    let v = v.trim();
    if v == "*" {
        return Ok(Dims::Any);
    }
    let inner = v.strip_prefix('[').and_then(|s| s.strip_suffix(']')).unwrap_or(v);
    let dims: Result<Vec<u64>, _> = inner.split(',').map(|p| p.trim().parse::<u64>()).collect();
    match dims {
        Ok(d) if (1..=3).contains(&d.len()) && d.iter().all(|&x| x > 0) => Ok(Dims::Fixed(d)),
        _ => Err(format!("`{v}` is not 1 to 3 positive sizes")),
    }
}

fn dims_arg(d: &[u64]) -> String {
    d.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// The `kivl verify` command line for a GPUVerify one, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// `kernel`: the flags that shape the program (sizes, abstraction, `-D`/`-I`), which
    /// `kivl transform` takes too; `houdini`: inference on (GPUVerify's default).
    Run { kernel: Vec<String>, houdini: bool },
    /// A flag kivl lacks: the test is skipped, with this reason.
    Skip(String),
}

/// How kivl treats one GPUVerify option (the name without `--` and without `=value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opt {
    LocalSize,
    NumGroups,
    GlobalSize,
    NoInfer,
    /// A kivl flag or flags with the same meaning.
    Same(&'static [&'static str]),
    /// Changes only GPUVerify's output or its way of getting the same verdict.
    Ignore(&'static str),
    /// Changes what is verified in a way kivl has no flag for.
    Lacks,
    /// `--clang-opt=`: warning switches (`-W...`) are harmless, anything else is not.
    Clang,
    /// A valued option kivl spells differently: the kivl flag, and the value GPUVerify uses when
    /// the option is given bare (`None`: a bare one goes to kivl, which rejects it).
    Valued(&'static str, Option<&'static str>),
    /// `--loop-unwind=N`: kivl's bounded mode, in which (as in GPUVerify) nothing is inferred.
    LoopUnwind,
}

/// GPUVerify's options that the suite uses, and a few neighbours. GPUVerify reads its command
/// line with Python's argparse, which takes any unambiguous prefix of an option (the suite has
/// `--vcgen-op=` for `--vcgen-opt=`), so [`lookup`] does too.
const OPTIONS: &[(&str, Opt)] = &[
    ("local_size", Opt::LocalSize),
    ("blockDim", Opt::LocalSize),
    ("num_groups", Opt::NumGroups),
    ("gridDim", Opt::NumGroups),
    ("global_size", Opt::GlobalSize),
    ("no-infer", Opt::NoInfer),
    ("equality-abstraction", Opt::Same(&["--abstraction", "equality"])),
    ("adversarial-abstraction", Opt::Same(&["--abstraction", "adversarial"])),
    ("only-intra-group", Opt::Same(&["--only-intra-group"])),
    ("only-divergence", Opt::Same(&["--only-divergence"])),
    ("no-benign-tolerance", Opt::Same(&["--no-benign-tolerance"])),
    // kivl inlines every call; a test whose bug only the modular mode finds is in MODULAR_ONLY.
    ("no-inline", Opt::Ignore("kivl inlines calls")),
    ("debug", Opt::Ignore("output only")),
    ("infer-info", Opt::Ignore("output only")),
    ("time", Opt::Ignore("output only")),
    ("time-as-csv", Opt::Ignore("output only")),
    ("verbose", Opt::Ignore("output only")),
    ("silent", Opt::Ignore("output only")),
    ("clang-opt", Opt::Clang),
    // GPUVerify's warp size defaults to 32; a bad value goes to kivl, which rejects it.
    ("warp-sync", Opt::Valued("--warp-sync", Some("32"))),
    ("atomic", Opt::Lacks),
    ("check-array-bounds", Opt::Same(&["--check-array-bounds"])),
    ("boogie-file", Opt::Lacks),
    ("boogie-opt", Opt::Lacks),
    ("vcgen-opt", Opt::Lacks),
    ("cruncher-opt", Opt::Lacks),
    ("bugle-opt", Opt::Lacks),
    ("loop-unwind", Opt::LoopUnwind),
    ("k-induction-depth", Opt::Lacks),
    ("kernel-args", Opt::Lacks),
    ("kernel-arrays", Opt::Lacks),
    ("invariants-as-candidates", Opt::Lacks),
    ("only-requires", Opt::Lacks),
    ("no-annotations", Opt::Lacks),
    ("no-barrier-access-checks", Opt::Lacks),
    ("asymmetric-asserts", Opt::Lacks),
    ("global_offset", Opt::Lacks),
    ("only-log", Opt::Lacks),
    ("array-equalities", Opt::Lacks),
    ("math-int", Opt::Lacks),
    ("no-uniformity-analysis", Opt::Lacks),
    ("no-smart-predication", Opt::Lacks),
    ("no-source-loc-infer", Opt::Lacks),
    ("call-site-analysis", Opt::Lacks),
];

/// The option `name` stands for: an exact name, else the one option it is a prefix of.
fn lookup(name: &str) -> Option<(&'static str, Opt)> {
    if let Some(&(n, o)) = OPTIONS.iter().find(|(n, _)| *n == name) {
        return Some((n, o));
    }
    let mut prefixed = OPTIONS.iter().filter(|(n, _)| !name.is_empty() && n.starts_with(name));
    match (prefixed.next(), prefixed.next()) {
        (Some(&(n, o)), None) => Some((n, o)),
        _ => None,
    }
}

/// Maps GPUVerify's arguments (already `${KERNEL_DIR}`-substituted) to kivl's canonical ones:
/// `--local-size A,B,C` and `--num-groups` (the global size divided by the local size), the
/// abstraction and race-check switches, `-D`/`-I` as they are; inference is on unless `--no-infer`
/// (kivl's default, as GPUVerify's).
///
/// A size combination that GPUVerify rejects (a global size the local size does not divide,
/// both `--num_groups` and `--global_size`, mismatched dimensions) is passed to kivl in
/// GPUVerify's own spelling, which kivl accepts as aliases: kivl must then reject the command
/// line itself, as those tests expect (`xfail:COMMAND_LINE_ERROR`), rather than the harness.
pub fn map_args(args: &[String]) -> Mapping {
    let mut kernel = Vec::new();
    let mut houdini = true;
    let (mut local, mut groups, mut global) = (None, None, None);
    // The size flags as written, for the pass-through of an invalid combination.
    let mut size_flags = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if let Some(rest) = a.strip_prefix("-D").or_else(|| a.strip_prefix("-I")) {
            let flag = &a[..2];
            if !rest.is_empty() {
                kernel.push(a.clone());
            } else if let Some(v) = args.get(i) {
                kernel.push(format!("{flag}{v}"));
                i += 1;
            } else {
                return Mapping::Skip(format!("`{flag}` without a value"));
            }
            continue;
        }
        let Some(opt) = a.strip_prefix("--") else {
            return Mapping::Skip(format!("unexpected argument `{a}`"));
        };
        let (name, value) = match opt.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (opt, None),
        };
        let Some((full, kind)) = lookup(name) else {
            return Mapping::Skip(format!("GPUVerify option `--{name}` unknown to the harness"));
        };
        let size = |v: Option<&str>| v.map(parse_dims).unwrap_or_else(|| Err(format!("`--{full}` without a value")));
        match kind {
            Opt::LocalSize | Opt::NumGroups | Opt::GlobalSize => {
                size_flags.push(a.clone());
                let slot = match kind {
                    Opt::LocalSize => &mut local,
                    Opt::NumGroups => &mut groups,
                    _ => &mut global,
                };
                // argparse keeps the last occurrence.
                *slot = Some(size(value));
            }
            Opt::NoInfer => houdini = false,
            Opt::Same(flags) => kernel.extend(flags.iter().map(|f| f.to_string())),
            Opt::Ignore(_) => {}
            Opt::Lacks => return Mapping::Skip(format!("kivl has no counterpart of `--{full}`")),
            Opt::Valued(flag, bare) => {
                kernel.push(flag.to_string());
                kernel.extend(value.or(bare).map(str::to_string));
            }
            Opt::LoopUnwind => {
                houdini = false;
                kernel.push("--loop-unwind".to_string());
                kernel.extend(value.map(str::to_string));
            }
            Opt::Clang => {
                if !value.is_some_and(|v| v.starts_with("-W")) {
                    return Mapping::Skip(format!("kivl cannot pass `{a}` to clang"));
                }
            }
        }
    }
    let sized = match sizes(local, groups, global) {
        SizeMap::Sizes((l, g)) => {
            let mut sized = Vec::new();
            if let Some(l) = l {
                sized.extend(["--local-size".to_string(), dims_arg(&l)]);
            }
            if let Some(g) = g {
                sized.extend(["--num-groups".to_string(), dims_arg(&g)]);
            }
            sized
        }
        SizeMap::Invalid => size_flags,
        SizeMap::Inexpressible(why) => return Mapping::Skip(why.into()),
    };
    kernel.splice(0..0, sized);
    Mapping::Run { kernel, houdini }
}

type SizeArg = Option<Result<Dims, String>>;

/// The local size and the number of groups, each `None` when left symbolic.
type Sizes = (Option<Vec<u64>>, Option<Vec<u64>>);

/// What becomes of GPUVerify's size flags.
enum SizeMap {
    /// The local size and the number of groups kivl gets.
    Sizes(Sizes),
    /// A combination GPUVerify rejects.
    Invalid,
    /// A constraint kivl's flags cannot state.
    Inexpressible(&'static str),
}

/// The local size and the number of groups kivl gets (`None`: left symbolic), checked as
/// GPUVerify checks them.
fn sizes(local: SizeArg, groups: SizeArg, global: SizeArg) -> SizeMap {
    let fixed = |d: Dims| match d {
        Dims::Fixed(v) => Some(v),
        Dims::Any => None,
    };
    let (Ok(local), Ok(groups), Ok(global)) = (local.transpose(), groups.transpose(), global.transpose()) else {
        return SizeMap::Invalid;
    };
    let local = local.and_then(fixed);
    match (groups, global) {
        (Some(_), Some(_)) => SizeMap::Invalid,
        (Some(g), None) => SizeMap::Sizes((local, fixed(g))),
        (None, None) | (None, Some(Dims::Any)) => SizeMap::Sizes((local, None)),
        (None, Some(Dims::Fixed(global))) => {
            let Some(l) = local else {
                return SizeMap::Inexpressible("kivl cannot fix the global size with the local size left open");
            };
            if l.len() != global.len() || l.iter().zip(&global).any(|(l, g)| g % l != 0) {
                return SizeMap::Invalid;
            }
            let g = global.iter().zip(&l).map(|(g, l)| g / l).collect();
            SizeMap::Sizes((Some(l), Some(g)))
        }
    }
}

/// `kivl verify` on one kernel: JSON, a time limit per search (`--search-timeout`, no limit on
/// the whole file), one solver thread (two kernels run
/// at once on two cores), enough errors reported for the regexes' lines to be among them.
pub fn verify_args(kernel: &[String], houdini: bool, timeout: u64, file: &str) -> Vec<String> {
    let mut args: Vec<String> =
        ["verify", "--format", "json", "--jobs", "1", "--error-limit", "20", "--timeout", "0", "--search-timeout"]
            .map(String::from)
            .to_vec();
    args.push(timeout.to_string());
    if !houdini {
        args.push("--no-infer".into());
    }
    args.extend(kernel.iter().cloned());
    args.push(file.to_string());
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
