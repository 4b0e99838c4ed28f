//! Runs every kernel of `tests/kernels/*.kbpl` (except `//needs-inference` ones) through
//! `gpu_passes::driver::verify_kernel` with the arguments of its header, and checks the
//! verdict the header states (tests/README.md, tests/kernels/README.md): `//pass` verifies; `//xfail:KIND`
//! reports an error of that kind at the listed line(s) — for a race, both lines among the
//! locations of one race error. A buggy kernel reported verified is a false negative and
//! always fails the test.
//!
//! `KERNEL_FILTER=substring` runs only matching files; `KERNEL_DUMP=DIR` writes the two-thread
//! program of each to `DIR/NAME.bpl`; `KERNEL_EXTRA_ARGS="--abstraction equality"` adds
//! arguments to every file's; `KERNEL_DIR` runs another directory of kernels.

use gpu_passes::driver::verify_kernel;
use gpu_passes::two_thread::{Abstraction, KernelOptions};
use ivl::ast::Program;
use ivl::diag::SourceFile;
use std::path::{Path, PathBuf};
use std::time::Instant;
use test_support::Header;
use vcgen::engine::{Outcome, VerifyOptions};

#[path = "two_thread_common/mod.rs"]
mod common;

fn options(args: &[String]) -> (KernelOptions, VerifyOptions) {
    let mut k = KernelOptions::default();
    let mut v = VerifyOptions { jobs: 1, timeout_secs: Some(60), ..VerifyOptions::default() };
    let sizes = |s: &str| s.split(',').map(|x| x.parse().expect("a size")).collect::<Vec<u64>>();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--local-size" => {
                i += 1;
                k.local_size = Some(sizes(&args[i]));
            }
            "--num-groups" => {
                i += 1;
                k.num_groups = Some(sizes(&args[i]));
            }
            "--houdini" => v.houdini = true,
            "--no-benign-tolerance" => k.benign_tolerance = false,
            "--only-intra-group" => k.only_intra_group = true,
            "--only-divergence" => k.only_divergence = true,
            "--abstraction" => {
                i += 1;
                k.abstraction = if args[i] == "equality" { Abstraction::Equality } else { Abstraction::Adversarial };
            }
            a => panic!("unknown argument {a}"),
        }
        i += 1;
    }
    (k, v)
}

fn kernels_dir() -> PathBuf {
    match std::env::var("KERNEL_DIR") {
        Ok(d) => PathBuf::from(d),
        Err(_) => Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels"),
    }
}

/// The outcome of one file: `Ok(summary)` or `Err(why it does not match its header)`.
fn run(path: &Path) -> Result<String, String> {
    let (h, text) = Header::read(path);
    let program: Program = common::front_end(&text).map_err(|d| format!("front end: {d:?}"))?;
    let mut args = h.args.clone();
    // Experiments: extra arguments for every file (e.g. `--abstraction equality`).
    if let Ok(extra) = std::env::var("KERNEL_EXTRA_ARGS") {
        args.extend(extra.split_whitespace().map(String::from));
    }
    let (kopts, vopts) = options(&args);
    if let Ok(dir) = std::env::var("KERNEL_DUMP") {
        let out = match gpu_passes::two_thread::two_thread_program(&program, &kopts) {
            Ok(p) => ivl::printer::print_program(&p),
            Err(d) => format!("// two-thread program: {d:?}"),
        };
        let name = path.file_stem().unwrap().to_string_lossy();
        std::fs::write(Path::new(&dir).join(format!("{name}.bpl")), out).unwrap();
    }
    let start = Instant::now();
    let r = verify_kernel(&program, &kopts, &vopts);
    let secs = start.elapsed().as_secs_f64();
    let file = SourceFile::new(path.display().to_string(), text.clone());
    if !r.errors.is_empty() {
        return Err(format!("invalid: {}", r.errors.iter().map(|d| d.render(&file, false)).collect::<String>()));
    }
    let mut errors = Vec::new();
    for i in &r.impls {
        match &i.outcome {
            Outcome::Verified => {}
            Outcome::Errors(ds) => errors.extend(ds.iter().cloned()),
            Outcome::Inconclusive(m) => return Err(format!("inconclusive ({}): {m}", i.name)),
        }
    }
    let lines = |d: &ivl::diag::Diagnostic| -> Vec<usize> {
        std::iter::once(&d.primary).chain(&d.related).map(|l| file.line_col(l.span.start).0).collect()
    };
    let shown = || {
        errors
            .iter()
            .map(|d| format!("  {} {:?}: {}", d.kind.as_str(), lines(d), d.message))
            .collect::<Vec<_>>()
            .join("\n")
    };
    match h.kind() {
        None if errors.is_empty() => Ok(format!("verified ({secs:.1}s)")),
        None => Err(format!("expected verified, got errors ({secs:.1}s):\n{}", shown())),
        Some(kind) => {
            if errors.is_empty() {
                return Err(format!("FALSE NEGATIVE: expected {kind}, got verified ({secs:.1}s)"));
            }
            let found = errors.iter().any(|d| {
                d.kind.as_str() == kind && {
                    let ls = lines(d);
                    if kind == "race" && h.error_lines.len() == 2 {
                        let (a, b) = (h.error_lines[0], h.error_lines[1]);
                        ls.contains(&a) && ls.contains(&b) && (a != b || ls.iter().filter(|&&l| l == a).count() >= 2)
                    } else {
                        h.error_lines.iter().all(|l| ls.contains(l))
                    }
                }
            });
            if found {
                Ok(format!("{kind} found ({secs:.1}s)"))
            } else {
                Err(format!("expected {kind} at {:?}, got ({secs:.1}s):\n{}", h.error_lines, shown()))
            }
        }
    }
}

/// Runs one file in a child process (this test binary with `KERNEL_ONE=path`): Z3's behaviour
/// on hard (nonlinear) queries depends on what the process solved before, and a verdict must
/// not depend on the order of the files.
fn run_isolated(path: &Path) -> Result<String, String> {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "corpus_verdicts", "--nocapture", "--include-ignored", "--test-threads", "1"])
        .env("KERNEL_ONE", path)
        .output()
        .map_err(|e| format!("cannot run the child: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.split_once("KERNEL_RESULT ") {
        Some((_, rest)) => {
            let rest = rest.split("KERNEL_END").next().unwrap_or(rest);
            match rest.split_once(' ') {
                Some(("ok", msg)) => Ok(msg.trim().to_string()),
                Some((_, msg)) => Err(msg.trim().to_string()),
                None => Err(rest.to_string()),
            }
        }
        None => Err(format!("the child crashed: {}{}", text, String::from_utf8_lossy(&out.stderr))),
    }
}

#[test]
fn corpus_verdicts() {
    if let Ok(one) = std::env::var("KERNEL_ONE") {
        match run(Path::new(&one)) {
            Ok(s) => println!("KERNEL_RESULT ok {s}KERNEL_END"),
            Err(e) => println!("KERNEL_RESULT fail {e}KERNEL_END"),
        }
        return;
    }
    let filter = std::env::var("KERNEL_FILTER").unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "kbpl"))
        .filter(|p| p.to_string_lossy().contains(&filter))
        .filter(|p| !Header::read(p).0.needs_inference)
        .collect();
    files.sort();
    let total_start = Instant::now();
    // Two children at a time (the machine has two cores).
    let results = test_support::par_map(&files, |f| run_isolated(f));
    let mut failures = Vec::new();
    let mut false_negatives = Vec::new();
    for (path, r) in files.iter().zip(results) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        match r {
            Ok(s) => println!("ok   {name}: {s}"),
            Err(e) => {
                println!("FAIL {name}: {e}");
                if e.starts_with("FALSE NEGATIVE") {
                    false_negatives.push(name.clone());
                }
                failures.push(name);
            }
        }
    }
    println!("{} files, {} failed, {:.1}s", files.len(), failures.len(), total_start.elapsed().as_secs_f64());
    assert!(false_negatives.is_empty(), "buggy kernels reported verified: {false_negatives:?}");
    assert!(failures.is_empty(), "kernels with a wrong verdict: {failures:?}");
}
