//! Shared helpers of the `invariants_*` tests: loading corpus kernels the way the pipeline does.
#![allow(dead_code)]

use ivl::ast::Program;
use std::path::PathBuf;

pub fn kernels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels")
}

/// Parses and checks a kernel of `tests/kernels/` (by base name), adds the prelude and infers
/// modifies clauses, as `kivl verify` does before the GPU passes.
pub fn load(name: &str) -> Program {
    try_load(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// [`load`], or why the kernel does not check.
pub fn try_load(name: &str) -> Result<Program, String> {
    let path = kernels_dir().join(format!("{name}.kbpl"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    try_parse_checked(&text)
}

pub fn parse_checked(text: &str) -> Program {
    try_parse_checked(text).unwrap()
}

pub fn try_parse_checked(text: &str) -> Result<Program, String> {
    let (p, diags) = ivl::parser::parse_program(text);
    if !diags.is_empty() {
        return Err(format!("{diags:?}"));
    }
    let p = ivl::prelude::with_prelude(p);
    let diags = ivl::check::check_program(&p);
    if !diags.is_empty() {
        return Err(format!("{diags:?}"));
    }
    Ok(ivl::modifies::infer_modifies(&p))
}

/// The header (tests/README.md) and the text of a corpus kernel.
pub fn read_header(name: &str) -> (test_support::Header, String) {
    test_support::Header::read(&kernels_dir().join(format!("{name}.kbpl")))
}

/// The header of a corpus kernel: (pass?, arguments line).
pub fn header(name: &str) -> (bool, String) {
    let (h, _) = read_header(name);
    (h.passes(), h.args_line())
}

/// Every kernel base name of the corpus, sorted.
pub fn corpus() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(kernels_dir())
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            if p.extension()? != "kbpl" {
                return None;
            }
            Some(p.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    v.sort();
    v
}

/// Kernel options from a header's argument line (`--local-size 64 --num-groups 4 …`).
pub fn kernel_options(args: &str) -> gpu_passes::two_thread::KernelOptions {
    let mut o = gpu_passes::two_thread::KernelOptions::default();
    let words: Vec<&str> = args.split_whitespace().collect();
    let dims = |s: &str| s.split(',').map(|x| x.parse::<u64>().unwrap()).collect::<Vec<u64>>();
    for (i, w) in words.iter().enumerate() {
        match *w {
            "--local-size" => o.local_size = Some(dims(words[i + 1])),
            "--num-groups" => o.num_groups = Some(dims(words[i + 1])),
            "--no-benign-tolerance" => o.benign_tolerance = false,
            _ => {}
        }
    }
    o
}

pub fn verify_options() -> vcgen::engine::VerifyOptions {
    vcgen::engine::VerifyOptions { jobs: 1, timeout_secs: Some(60), houdini: true, ..Default::default() }
}

pub fn verified(r: &vcgen::engine::ProgramResult) -> bool {
    r.errors.is_empty() && r.impls.iter().all(|i| matches!(i.outcome, vcgen::engine::Outcome::Verified))
}

pub fn has_loops(p: &Program) -> bool {
    !gpu_passes::invariants::add_candidates(p).1.loops.is_empty()
}

pub fn describe(r: &vcgen::engine::ProgramResult) -> String {
    let mut s = String::new();
    for e in &r.errors {
        s.push_str(&format!("invalid: {} ", e.message));
    }
    for i in &r.impls {
        match &i.outcome {
            vcgen::engine::Outcome::Verified => {}
            vcgen::engine::Outcome::Errors(ds) => {
                for d in ds {
                    s.push_str(&format!("[{}:{} @{}] ", d.kind.as_str(), d.message, d.primary.span.start));
                }
            }
            vcgen::engine::Outcome::Inconclusive(m) => s.push_str(&format!("inconclusive: {m} ")),
        }
    }
    s
}
