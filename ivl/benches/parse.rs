//! Parser throughput on the GPU corpus (`$KIVL_CORPUS/**/*.bpl`, `ivl::corpus`), and on one
//! large file. Run with `cargo bench -p ivl --bench parse`; prints MB/s. Without the corpus it
//! times a synthetic program instead.

use std::time::Instant;

/// Time this thread has spent on a CPU (Linux `/proc/thread-self/schedstat`), so that the
/// numbers mean something on a loaded machine; falls back to wall-clock time.
fn cpu_time() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn time(label: &str, texts: &[String]) {
    let bytes: usize = texts.iter().map(String::len).sum();
    // Warm up (builds the per-thread parsers).
    let _ = ivl::parser::parse_program("var x: int;");
    let mut best = f64::MAX;
    let mut best_cpu = f64::MAX;
    let mut diags = 0;
    for _ in 0..3 {
        let t0 = Instant::now();
        let c0 = cpu_time();
        diags = 0;
        for t in texts {
            let (p, d) = ivl::parser::parse_program(t);
            diags += d.len();
            std::hint::black_box(p);
        }
        best = best.min(t0.elapsed().as_secs_f64());
        if let (Some(c0), Some(c1)) = (c0, cpu_time()) {
            best_cpu = best_cpu.min(c1 - c0);
        }
    }
    let mb = bytes as f64 / 1e6;
    println!(
        "{label}: {} files, {mb:.1} MB: wall {best:.3} s = {:.1} MB/s, cpu {best_cpu:.3} s = {:.1} MB/s ({diags} diagnostics)",
        texts.len(),
        mb / best,
        mb / best_cpu
    );
}

fn main() {
    // `PARSE_FILE=path`: parse one file once (for profilers such as callgrind).
    if let Ok(path) = std::env::var("PARSE_FILE") {
        let text = std::fs::read_to_string(path).expect("readable file");
        let t0 = Instant::now();
        let _ = ivl::parser::parse_program("var x: int;");
        let t1 = Instant::now();
        let _ = ivl::parser::parse_program("var x int;");
        println!(
            "building the parser: {:.2} ms; the explaining parser: {:.2} ms",
            (t1 - t0).as_secs_f64() * 1e3,
            t1.elapsed().as_secs_f64() * 1e3
        );
        let (p, d) = ivl::parser::parse_program(&text);
        println!("{} declarations, {} diagnostics", p.decls.len(), d.len());
        return;
    }
    let root = ivl::corpus::gpu();
    let mut files = Vec::new();
    for sub in ["gpuverify", "other"] {
        if let Some(root) = &root {
            files.extend(ivl::corpus::files_where(&root.join(sub), |p| p.extension().is_some_and(|x| x == "bpl")));
        }
    }
    let root = root.unwrap_or_default();
    if files.is_empty() {
        let mut s = String::new();
        for i in 0..20000 {
            s.push_str(&format!(
                "procedure {{:inline 1}} p{i}(x: bv32) returns (r: bv32)\n{{\n  r := BV32_ADD(x, {i}bv32);\n  assume {{:captureState \"s\"}} r == x;\n}}\n"
            ));
        }
        time("synthetic", &[s]);
        return;
    }
    files.sort();
    let gpuverify: Vec<String> = files
        .iter()
        .filter(|p| p.starts_with(root.join("gpuverify")))
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    time("gpuverify", &gpuverify);
    let other: Vec<String> = files
        .iter()
        .filter(|p| p.starts_with(root.join("other")))
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    time("other", &other);
    let sha1 = root.join("gpuverify/gpgpu-sim_ispass2009/STO/sha1.bpl");
    if let Ok(t) = std::fs::read_to_string(sha1) {
        time("sha1.bpl", &[t]);
    }
}
