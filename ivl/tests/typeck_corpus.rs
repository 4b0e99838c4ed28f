//! Every GPUVerify-generated program of the corpus (`$KIVL_CORPUS/{gpuverify,other}`,
//! 1,036 files) parses, resolves and type-checks without a single diagnostic, and the front end
//! is fast on it. Skipped (with a message) unless `KIVL_CORPUS` names a checkout of
//! github.com/symbooglix/gpu (`ivl::corpus`).

use ivl::diag::SourceFile;

use std::time::{Duration, Instant};

#[test]
fn gpu_corpus_checks_without_diagnostics() {
    // Deeply nested generated expressions: run on a big stack, as `kivl` does.
    std::thread::Builder::new().stack_size(256 << 20).spawn(run).unwrap().join().unwrap();
}

fn run() {
    let Some(root) = ivl::corpus::gpu() else { return };
    let mut files = ivl::corpus::bpl_files(&root.join("gpuverify"));
    files.extend(ivl::corpus::bpl_files(&root.join("other")));
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
