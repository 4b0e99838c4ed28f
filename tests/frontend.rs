//! The OpenCL/CUDA front end (issue 17) on `tests/frontend/*.{cl,cu}`: each kernel's header
//! (tests/README.md: `//pass` or `//xfail:KIND`, `//args: …`, the error line(s)) is checked
//! against `kivl verify --format json`, and the `.kbpl` that `kivl transform --emit kbpl`
//! prints must give the same verdict.

mod common;

use common::{files, kivl, par_map, repo_dir, Header};
use std::path::PathBuf;
use std::sync::OnceLock;

fn kernels() -> Vec<PathBuf> {
    files("tests/frontend", &["cl", "cu"])
}

/// One kernel of `tests/frontend/` with its header and `kivl verify`'s run on it.
struct Verified {
    path: PathBuf,
    /// The expected error kind (None: pass).
    kind: Option<String>,
    args: Vec<String>,
    /// The lines the expected error must point at.
    lines: Vec<u64>,
    run: common::Run,
}

/// Every kernel verified once, on two threads, for both tests below: verifying the kernels is
/// most of this file's time, and the second test compares the emitted `.kbpl` with these runs.
fn verified() -> &'static [Verified] {
    static RUNS: OnceLock<Vec<Verified>> = OnceLock::new();
    RUNS.get_or_init(|| {
        par_map(&kernels(), |path| {
            let (h, _) = Header::read(path);
            let (kind, lines) = (h.kind().map(String::from), h.error_lines.iter().map(|&l| l as u64).collect());
            let run = verify(path.to_str().unwrap(), &h.args);
            Verified { path: path.clone(), kind, args: h.args, lines, run }
        })
    })
}

fn verify(file: &str, args: &[String]) -> common::Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    common::verify_json(std::path::Path::new(file), &args)
}

#[test]
fn verdicts_and_error_lines() {
    let mut failures = Vec::new();
    for Verified { path, kind, lines, run, .. } in verified() {
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
    let translated: Vec<&Verified> =
        verified().iter().filter(|v| !matches!(v.kind.as_deref(), Some("unsupported" | "syntax"))).collect();
    let failures: Vec<String> = par_map(&translated, |v| {
        let Verified { path, args, run: original, .. } = *v;
        // The options of the translation (clang's and the front end's: `--kernel NAME` too),
        // not the sizes.
        let kernel_value = |k: usize| k > 0 && args[k - 1] == "--kernel";
        let translation = |k: usize| {
            let a = &args[k];
            a.starts_with("-D") || a == "--check-array-bounds" || a == "--kernel" || kernel_value(k)
        };
        let mut t = vec!["transform", path.to_str().unwrap(), "--emit", "kbpl"];
        t.extend((0..args.len()).filter(|&k| translation(k)).map(|k| args[k].as_str()));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl")).args(&t).output().unwrap();
        if !out.status.success() {
            return Some(format!("{}: transform failed", path.display()));
        }
        let kbpl = dir.join(path.file_name().unwrap()).with_extension("kbpl");
        std::fs::write(&kbpl, &out.stdout).unwrap();
        let sizes: Vec<String> = (0..args.len()).filter(|&k| !translation(k)).map(|k| args[k].clone()).collect();
        let again = verify(kbpl.to_str().unwrap(), &sizes);
        (original.code != again.code || original.verdict() != again.verdict())
            .then(|| format!("{}: {} vs {} on the emitted .kbpl", path.display(), original.code, again.code))
    })
    .into_iter()
    .flatten()
    .collect();
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

/// Kernel files with bytes that are not UTF-8 in comments (the Latin-1 `©` of AMD's SDK, the
/// Windows-1252 quotes of C++ AMP's samples): clang reads them, and so does kivl, reporting at
/// the file's own lines and columns (`frontend::decode_source`). The racy kernel writes `A[0]`
/// from every work-item, its twin `A[get_global_id(0)]`.
#[test]
fn kernels_with_bytes_that_are_not_utf8_are_read() {
    let dir = std::env::temp_dir().join(format!("kivl-frontend-latin1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = |index: &str| {
        let mut k = b"// Copyright \xa9 2013, \x93quoted\x94\n".to_vec();
        k.extend_from_slice(b"__kernel void k(__global int *A) { /* \xa9 */ A[");
        k.extend_from_slice(format!("{index}] = get_global_id(0); }}\n").as_bytes());
        k
    };
    let args = ["--local_size=64", "--num_groups=1"];
    for (name, index, racy) in [("latin1_race.cl", "0", true), ("latin1.cl", "get_global_id(0)", false)] {
        let path = dir.join(name);
        let bytes = kernel(index);
        std::fs::write(&path, &bytes).unwrap();
        let run = common::verify_json(&path, &args);
        if !racy {
            assert_eq!((run.code, run.verdict()), (0, "verified"), "{name}: {:?}", run.error_summary());
            continue;
        }
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        let e = &run.errors()[0];
        assert_eq!(e["kind"], "race", "{name}");
        // Line 2, at the column of `A[0]` counted in bytes of the file (the bad byte is one).
        let line2 = &bytes[bytes.iter().position(|&b| b == b'\n').unwrap() + 1..];
        let col = line2.windows(4).position(|w| w == b"A[0]").unwrap() as u64 + 1;
        let at = &e["locations"][0];
        assert_eq!((at["line"].as_u64(), at["column"].as_u64()), (Some(2), Some(col)), "{name}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
