//! The OpenCL/CUDA front end (issue 17) on `tests/frontend/*.{cl,cu}`: each kernel's header
//! (as in `tests/kernels/README.md`: line 1 `//pass` or `//xfail:KIND`, line 2 the arguments,
//! line 3 the error line(s)) is checked against `kivl verify --format json`, and the `.kbpl`
//! that `kivl transform --emit kbpl` prints must give the same verdict.

mod common;

use common::{header, kivl, line_list, repo_dir};
use std::path::PathBuf;

fn kernels() -> Vec<PathBuf> {
    let mut v = common::files("tests/frontend", "cl");
    v.extend(common::files("tests/frontend", "cu"));
    v
}

/// `(expected kind or None for pass, arguments, error lines)`.
fn expectation(text: &str) -> (Option<String>, Vec<String>, Vec<u64>) {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let kind = first.strip_prefix("//xfail:").map(|k| k.trim().to_string());
    let args = lines.next().unwrap_or_default().trim_start_matches("//").split_whitespace().map(String::from).collect();
    let errors = header(text, "error-lines").or_else(|| header(text, "error-line")).map(line_list).unwrap_or_default();
    (kind, args, errors)
}

fn verify(file: &str, args: &[String]) -> common::Run {
    let mut a: Vec<&str> = vec!["verify", "--format", "json"];
    a.extend(args.iter().map(String::as_str));
    a.push(file);
    kivl(&a)
}

#[test]
fn verdicts_and_error_lines() {
    let mut failures = Vec::new();
    for path in kernels() {
        let text = std::fs::read_to_string(&path).unwrap();
        let (kind, args, lines) = expectation(&text);
        let run = verify(path.to_str().unwrap(), &args);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match kind.as_deref() {
            None => {
                if run.code != 0 || run.verdict() != "verified" {
                    failures.push(format!("{name}: expected verified, got {} {:?}", run.code, run.error_summary()));
                }
            }
            Some(k) => {
                let code = if matches!(k, "unsupported" | "syntax") { 2 } else { 1 };
                // Every listed line among the locations of one error of the expected kind.
                let found = run.errors().iter().any(|e| {
                    let locs: Vec<u64> =
                        e["locations"].as_array().into_iter().flatten().filter_map(|l| l["line"].as_u64()).collect();
                    e["kind"] == k && lines.iter().all(|l| locs.contains(l))
                });
                if run.code != code || !found {
                    failures.push(format!(
                        "{name}: expected {k} at {lines:?}, got {} {:?}",
                        run.code,
                        run.error_summary()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn emitted_kbpl_gives_the_same_verdict() {
    let dir = std::env::temp_dir().join(format!("kivl-frontend-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for path in kernels() {
        let text = std::fs::read_to_string(&path).unwrap();
        let (kind, args, _) = expectation(&text);
        if matches!(kind.as_deref(), Some("unsupported" | "syntax")) {
            continue;
        }
        // The options of the translation (clang's and the front end's), not the sizes.
        let translation = |a: &String| a.starts_with("-D") || a == "--check-array-bounds";
        let mut t = vec!["transform", path.to_str().unwrap(), "--emit", "kbpl"];
        t.extend(args.iter().filter(|a| translation(a)).map(String::as_str));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl")).args(&t).output().unwrap();
        assert!(out.status.success(), "{}: transform failed", path.display());
        let kbpl = dir.join(path.file_name().unwrap()).with_extension("kbpl");
        std::fs::write(&kbpl, &out.stdout).unwrap();
        let sizes: Vec<String> = args.iter().filter(|a| !translation(a)).cloned().collect();
        let original = verify(path.to_str().unwrap(), &args);
        let again = verify(kbpl.to_str().unwrap(), &sizes);
        if original.code != again.code || original.verdict() != again.verdict() {
            failures.push(format!("{}: {} vs {} on the emitted .kbpl", path.display(), original.code, again.code));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn global_size_is_local_size_times_groups() {
    let k = repo_dir("tests/frontend/neighbour.cl");
    let ok = kivl(&["verify", "--format", "json", "--local_size=32", "--global_size=256", k.to_str().unwrap()]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let bad = kivl(&["verify", "--format", "json", "--local_size=32", "--global_size=100", k.to_str().unwrap()]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("not a multiple"), "{}", bad.stderr);
}
