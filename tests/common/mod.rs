//! Shared by the file tests: runs the `kivl` binary and reads expectation headers.

// Each test file uses a part of these helpers.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn repo_dir(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Files with extension `ext` in a test directory, sorted.
pub fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo_dir(dir))
        .unwrap_or_else(|e| panic!("reading {dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

/// The result of one `kivl` run with `--format json`.
pub struct Run {
    pub code: i32,
    pub json: Value,
    pub stderr: String,
}

impl Run {
    pub fn file(&self) -> &Value {
        &self.json["files"][0]
    }
    pub fn verdict(&self) -> &str {
        self.file()["verdict"].as_str().unwrap_or("?")
    }
    pub fn errors(&self) -> Vec<&Value> {
        self.file()["errors"].as_array().map(|a| a.iter().collect()).unwrap_or_default()
    }
    /// `(kind, primary line)` of every error.
    pub fn error_summary(&self) -> Vec<(String, u64)> {
        self.errors()
            .iter()
            .map(|e| (e["kind"].as_str().unwrap_or("?").to_string(), e["locations"][0]["line"].as_u64().unwrap_or(0)))
            .collect()
    }
}

pub fn kivl(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_kivl")).args(args).output().expect("running kivl");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    Run { code: out.status.code().unwrap_or(-1), json, stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
}

/// The value of a `// key: value` (or `//key: value`) header line among the first lines.
pub fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().take(12).find_map(|l| {
        let l = l.trim_start().strip_prefix("//")?.trim_start();
        l.strip_prefix(key)?.trim_start().strip_prefix(':').map(str::trim)
    })
}

/// Comma-separated line numbers.
pub fn line_list(s: &str) -> Vec<u64> {
    s.split(',').filter_map(|x| x.trim().parse().ok()).collect()
}

/// A Boogie program asserting that no two numbers in `2..bound` multiply to `n` in `width`-bit
/// arithmetic. Z3 proves it by bit-blasting, in a time that grows fast with the width: a
/// program of known difficulty for the tests of `--timeout`.
pub fn factoring_program(width: u32, bound: u64, n: u64) -> String {
    let bv = format!("bv{width}");
    format!(
        "function {{:bvbuiltin \"bvmul\"}} mul({bv}, {bv}): {bv};\n\
         function {{:bvbuiltin \"bvugt\"}} ugt({bv}, {bv}): bool;\n\
         function {{:bvbuiltin \"bvult\"}} ult({bv}, {bv}): bool;\n\
         procedure P(x: {bv}, y: {bv})\n  \
           requires ugt(x, 1{bv}) && ugt(y, 1{bv}) && ult(x, {bound}{bv}) && ult(y, {bound}{bv});\n\
         {{\n  assert mul(x, y) != {n}{bv};\n}}\n"
    )
}

/// `kivl verify --format json ARGS FILE`.
pub fn verify_json(file: &Path, args: &[&str]) -> Run {
    let mut a = vec!["verify", "--format", "json"];
    a.extend_from_slice(args);
    a.push(file.to_str().unwrap());
    kivl(&a)
}

/// A corpus kernel's header: expected kind (None: pass) and the `kivl verify` arguments.
pub fn corpus() -> Vec<(PathBuf, Option<String>, Vec<String>)> {
    files("tests/kernels", "kbpl")
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let mut lines = text.lines();
            let head = lines.next()?;
            let expect = match head.strip_prefix("//xfail:") {
                Some(k) => Some(k.trim().to_string()),
                None if head.trim() == "//pass" => None,
                None => return None,
            };
            let args = lines.next()?.trim_start_matches("//").split_whitespace().map(String::from).collect();
            Some((p, expect, args))
        })
        .collect()
}

/// Runs `f` over `items` on two threads (the machine has two cores), keeping the order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut v = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if i >= items.len() {
                            break v;
                        }
                        v.push((i, f(&items[i])));
                    }
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// The flags of a `kivl verify` command line that `kivl run` takes too: the sizes and the
/// benign-write switch.
pub fn run_flags(verify_args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < verify_args.len() {
        match verify_args[i].as_str() {
            "--local-size" | "--num-groups" => {
                out.extend(verify_args[i..].iter().take(2).cloned());
                i += 1;
            }
            "--no-benign-tolerance" => out.push(verify_args[i].clone()),
            _ => {}
        }
        i += 1;
    }
    out
}
