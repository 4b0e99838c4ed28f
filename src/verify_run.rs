//! A `kivl verify` run over its files, and the options that shape what it prints (issue 22):
//! `--verbose`, `--silent`, `--time`, `--stop-at-first-error`, and the progress line on a
//! terminal ([`crate::progress`]).
//!
//! Files are verified one after the other; each gets its time (`time_ms`) and, with `--time`,
//! its per-stage times ([`crate::timing`]). With `--stop-at-first-error` the engine leaves out
//! the implementations after the first one with an error (`vcgen::engine::VerifyOptions::
//! stop_at_first_error`, reported as not verified by [`crate::verdicts`]) and the run stops
//! after that file; the files after it are not verified and are listed as skipped.

use crate::cache::Cache;
use crate::pipeline::{self, VerifyConfig};
use crate::progress;
use crate::report::{self, Format, RunExtras, Style, Verdict};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// `verify`'s options about its output.
#[derive(Args, Clone, Debug, Default)]
pub struct OutputArgs {
    /// Human output: also print each counterexample's execution trace (the internal blocks it
    /// went through, `anon0 -> anon1_Then -> …`).
    #[arg(long, short = 'v', conflicts_with = "silent")]
    pub verbose: bool,
    /// Human output: print only the closing line (the exit status tells the verdict); no
    /// progress line.
    #[arg(long, short = 'q')]
    pub silent: bool,
    /// Print per-stage times (front end, passes, VC generation, Houdini, verifying, replay,
    /// solver) and per-implementation times after the report (GPUVerify's --time); in the JSON
    /// under `time`.
    #[arg(long)]
    pub time: bool,
    /// Stop at the first verification error: the implementations after it in its file and the
    /// files after it are not verified (reported as such).
    #[arg(long)]
    pub stop_at_first_error: bool,
    /// Never draw the progress line (drawn on stderr when stdout and stderr are terminals
    /// and the output is human, without --silent).
    #[arg(long)]
    pub no_progress: bool,
}

impl OutputArgs {
    /// Whether the progress line is drawn for output in `format`.
    fn line(&self, format: Format) -> bool {
        !self.no_progress && format == Format::Human && !self.silent && progress::terminal_attended()
    }
}

/// Verifies `files`, prints the reports in `format`, and returns the exit status.
pub fn run(files: &[PathBuf], cfg: &mut VerifyConfig, cache: Option<&Cache>, out: &OutputArgs, format: Format) -> i32 {
    let start = Instant::now();
    cfg.driver.engine.observer = progress::install(out.line(format));
    let mut reports = Vec::new();
    let mut extras = RunExtras::default();
    let mut times = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let file_start = Instant::now();
        progress::start_file(&f.display().to_string());
        let mut r = match cache {
            Some(c) => crate::cache::verify_file(f, cfg, c),
            None => pipeline::verify_file(f, cfg),
        };
        let stage_times = progress::finish_file();
        let took = file_start.elapsed();
        r.extra.insert("time_ms".into(), (took.as_millis() as u64).into());
        if out.time {
            extras.time_lines.extend(crate::timing::file_lines(&r, &stage_times, took));
            r.extra.insert("time".into(), crate::timing::file_json(&r, &stage_times, took));
        }
        times.push((stage_times, took));
        let stop = out.stop_at_first_error && r.verdict == Verdict::Errors;
        reports.push(r);
        if stop {
            extras.skipped = files[i + 1..].iter().map(|f| f.display().to_string()).collect();
            break;
        }
    }
    let total = start.elapsed();
    extras.total_ms = Some(total.as_millis() as u64);
    if out.time {
        extras.time_json = Some(crate::timing::run_json(&times, total));
        extras.time_lines.push(format!("time: total {}", crate::timing::secs(total)));
    }
    let counts = reports.iter().map(report::counts).fold(report::Counts::default(), |a, b| a + b);
    let style = Style { format, verbose: out.verbose, silent: out.silent };
    report::print_run(&reports, style, Some(counts), &extras);
    report::exit_code(&reports)
}
