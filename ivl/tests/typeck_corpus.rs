//! Every GPUVerify-generated program of the corpus (`/work/corpus/gpu/{gpuverify,other}`,
//! 1,036 files) parses, resolves and type-checks without a single diagnostic, and the front end
//! is fast on it. Skipped (with a message) where the corpus is absent. Set `KIVL_CORPUS` to use
//! another checkout of github.com/symbooglix/gpu.

use ivl::diag::SourceFile;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn corpus_root() -> PathBuf {
    std::env::var_os("KIVL_CORPUS").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/work/corpus/gpu"))
}

fn bpl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            bpl_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "bpl") {
            out.push(p);
        }
    }
}

#[test]
fn gpu_corpus_checks_without_diagnostics() {
    // Deeply nested generated expressions: run on a big stack, as `kivl` does.
    std::thread::Builder::new().stack_size(256 << 20).spawn(run).unwrap().join().unwrap();
}

fn run() {
    let root = corpus_root();
    if !root.join("gpuverify").is_dir() {
        eprintln!("skipped: no GPU corpus at {}", root.display());
        return;
    }
    let mut files = Vec::new();
    bpl_files(&root.join("gpuverify"), &mut files);
    bpl_files(&root.join("other"), &mut files);
    files.sort();
    assert!(files.len() >= 1000, "expected the 1,036 corpus files, found {}", files.len());
    let (mut parse_time, mut check_time, mut bytes) = (Duration::ZERO, Duration::ZERO, 0usize);
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        bytes += text.len();
        let t0 = Instant::now();
        let (program, pd) = ivl::parser::parse_program(&text);
        let t1 = Instant::now();
        let cd = ivl::check::check_program(&program);
        check_time += t1.elapsed();
        parse_time += t1 - t0;
        let source = SourceFile::new(f.display().to_string(), text);
        for d in pd.iter().chain(&cd).take(3) {
            let (l, c) = source.line_col(d.primary.span.start);
            failures.push(format!("{}:{l}:{c}: [{}] {}", f.display(), d.kind.as_str(), d.message));
        }
    }
    eprintln!(
        "{} files, {:.1} MB: parse {:.2} s, resolve+typecheck {:.2} s",
        files.len(),
        bytes as f64 / 1e6,
        parse_time.as_secs_f64(),
        check_time.as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} diagnostics, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}
