//! Shared by the file tests: runs the `kivl` binary; the test files' headers are read by the
//! `test-support` crate (tests/README.md).

// Each test file uses a part of these helpers.
#![allow(dead_code, unused_imports)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
pub use test_support::{files, par_map, repo_dir, Expect, Header};

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
///
/// Without `--houdini` in `args`, `--no-infer` is added: the headers' verdicts without
/// `--houdini` were set for verification without inference (kivl's default before issue 22),
/// and the corpus runs stay as fast as they were.
pub fn verify_json(file: &Path, args: &[&str]) -> Run {
    let mut a = vec!["verify", "--format", "json"];
    if !args.contains(&"--houdini") {
        a.push("--no-infer");
    }
    a.extend_from_slice(args);
    a.push(file.to_str().unwrap());
    kivl(&a)
}

/// The kernels of `tests/kernels/` (tests/README.md): each with its expected error kind
/// (None: pass) and its `kivl verify` arguments.
pub fn corpus() -> Vec<(PathBuf, Option<String>, Vec<String>)> {
    files("tests/kernels", &["kbpl"])
        .into_iter()
        .map(|p| {
            let (h, _) = Header::read(&p);
            (p, h.kind().map(String::from), h.args)
        })
        .collect()
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
