//! What dynamic candidate killing saves (issue 6): verifies every loop kernel of
//! `tests/kernels/` with automatic invariants — the correct kernels with their own loop
//! invariants removed, the buggy ones as written — once with and once without the dynamic
//! phase (`gpu_passes::invariants::dynamic`), and prints Houdini's time, its solver checks and
//! the total time of both, and whether the verdicts agree (they must: a candidate a run
//! refutes is one Houdini refutes too).
//!
//!     cargo run --release -p gpu-passes --example infer_bench [-- KERNEL_DIR] [--repeat N]
//!
//! (`scripts/infer-bench.sh` runs it.)

use gpu_passes::driver::{verify_with_inference_opts, InferOptions};
use gpu_passes::invariants::strip_loop_invariants;
use gpu_passes::two_thread::KernelOptions;
use ivl::ast::Program;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use vcgen::engine::{Outcome, ProgramResult, VerifyOptions};

fn load(text: &str) -> Option<Program> {
    let (p, diags) = ivl::parser::parse_program(text);
    if !diags.is_empty() {
        return None;
    }
    let p = ivl::prelude::with_prelude(p);
    if !ivl::check::check_program(&p).is_empty() {
        return None;
    }
    Some(ivl::modifies::infer_modifies(&p))
}

fn kernel_options(args: &str) -> KernelOptions {
    let mut o = KernelOptions::default();
    let words: Vec<&str> = args.split_whitespace().collect();
    let dims = |s: &str| s.split(',').filter_map(|x| x.parse::<u64>().ok()).collect::<Vec<u64>>();
    for (i, w) in words.iter().enumerate() {
        match *w {
            "--local-size" => o.local_size = words.get(i + 1).map(|s| dims(s)),
            "--num-groups" => o.num_groups = words.get(i + 1).map(|s| dims(s)),
            "--no-benign-tolerance" => o.benign_tolerance = false,
            _ => {}
        }
    }
    o
}

/// `Some(true)` verified, `Some(false)` errors, `None` inconclusive (a solver timeout).
fn verdict(r: &ProgramResult) -> Option<bool> {
    if !r.errors.is_empty() || r.impls.iter().any(|i| matches!(i.outcome, Outcome::Errors(_))) {
        Some(false)
    } else if r.impls.iter().any(|i| matches!(i.outcome, Outcome::Inconclusive(_))) {
        None
    } else {
        Some(true)
    }
}

#[derive(Default, Clone, Copy)]
struct Totals {
    houdini: Duration,
    checks: usize,
    total: Duration,
    dynamic: Duration,
    killed: usize,
    verified: usize,
    inconclusive: usize,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let mut repeat = 1;
    while let Some(a) = args.next() {
        if a == "--repeat" {
            repeat = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
        } else {
            dir = PathBuf::from(a);
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("kernel directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "kbpl"))
        .collect();
    files.sort();
    let vopts = VerifyOptions { jobs: 1, timeout_secs: Some(30), houdini: true, ..Default::default() };
    let modes = [("with dynamic killing", true), ("Houdini only", false)];
    let mut totals = [Totals::default(); 2];
    let mut disagreements = Vec::new();
    println!(
        "{:<40} {:>12} {:>12} {:>7} {:>7} {:>7}  verdicts",
        "kernel", "houdini(dyn)", "houdini(off)", "checks", "checks", "killed"
    );
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let Ok(header) = test_support::Header::parse(&text) else { continue };
        let pass = header.passes();
        let kopts = kernel_options(&header.args_line());
        let Some(program) = load(&text) else { continue };
        if gpu_passes::invariants::add_candidates(&program).1.loops.is_empty() {
            continue;
        }
        let program = if pass { strip_loop_invariants(&program) } else { program };
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut row = [Totals::default(); 2];
        let mut verdicts = [None; 2];
        for (m, (_, dynamic)) in modes.iter().enumerate() {
            let iopts = InferOptions { dynamic: *dynamic, ..InferOptions::default() };
            for _ in 0..repeat {
                let start = Instant::now();
                let (r, report) = verify_with_inference_opts(&program, &kopts, &vopts, true, &iopts);
                let report = report.expect("report");
                row[m].total += start.elapsed();
                row[m].dynamic += report.dynamic_time;
                row[m].killed = report.killed_by_run();
                if let Some(h) = &r.houdini {
                    row[m].houdini += h.time;
                    row[m].checks += h.checks;
                }
                verdicts[m] = verdict(&r);
            }
        }
        // A timeout in one mode is not a disagreement; opposite conclusive verdicts are.
        if let (Some(a), Some(b)) = (verdicts[0], verdicts[1]) {
            if a != b {
                disagreements.push(name.clone());
            }
        }
        let v = |x: Option<bool>| match x {
            Some(true) => "verified",
            Some(false) => "errors",
            None => "timeout",
        };
        println!(
            "{name:<40} {:>12.1?} {:>12.1?} {:>7} {:>7} {:>7}  {} / {}",
            row[0].houdini,
            row[1].houdini,
            row[0].checks,
            row[1].checks,
            row[0].killed,
            v(verdicts[0]),
            v(verdicts[1])
        );
        for m in 0..2 {
            totals[m].houdini += row[m].houdini;
            totals[m].checks += row[m].checks;
            totals[m].total += row[m].total;
            totals[m].dynamic += row[m].dynamic;
            totals[m].killed += row[m].killed;
            totals[m].verified += (verdicts[m] == Some(true)) as usize;
            totals[m].inconclusive += verdicts[m].is_none() as usize;
        }
    }
    for (m, (label, _)) in modes.iter().enumerate() {
        let t = totals[m];
        println!(
            "{label:<22}: Houdini {:.2?} ({} solver checks), dynamic phase {:.2?} ({} candidates killed), total {:.2?}, {} verified, {} inconclusive",
            t.houdini, t.checks, t.dynamic, t.killed, t.total, t.verified, t.inconclusive
        );
    }
    if disagreements.is_empty() {
        println!("verdicts agree on every kernel");
    } else {
        println!("VERDICTS DIFFER on {disagreements:?}");
        std::process::exit(1);
    }
}
