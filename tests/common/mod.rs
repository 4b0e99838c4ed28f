//! Shared by the file tests: runs the `kivl` binary and reads expectation headers.

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
