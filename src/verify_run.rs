//! A `kivl verify` run over its files, and the options that shape what it prints (issue 22):
//! `--verbose`, `--silent`, `--time`, `--stop-at-first-error`, and the progress line on a
//! terminal ([`crate::progress`]).
//!
//! Files are verified one after the other; each gets its time (`time_ms`) and, with `--time`,
//! its per-stage times ([`crate::timing`]). With `--stop-at-first-error` the engine leaves out
//! the implementations after the first one with an error (`vcgen::engine::VerifyOptions::
//! stop_at_first_error`, reported as not verified by [`crate::verdicts`]) and the run stops
//! after that file; the files after it are not verified and are listed as skipped.
//!
//! `--timeout N` is a wall-clock limit per file (issue 42). The solver searches, and clang and
//! opt, end by the deadline on their own (`ivl::deadline`); the rest (the translation, the
//! passes, the replay) cannot be stopped from inside, so each file runs on a thread of its own
//! and, should it still be running a moment after its limit (`ivl::deadline::wind_down`), the file is reported
//! as timed out in the stage it was in and that thread is left behind: its solver checks end at
//! once (the deadline has passed), and the process does not wait for it at exit.

use crate::cache::Cache;
use crate::pipeline::{self, VerifyConfig};
use crate::progress;
use crate::report::{self, Format, RunExtras, Style, Verdict};
use clap::Args;
use ivl::diag::{Diagnostic, ErrorKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    let shared = Arc::new(cfg.clone());
    let mut left_behind = false;
    for (i, f) in files.iter().enumerate() {
        let file_start = Instant::now();
        progress::start_file(&f.display().to_string());
        let verify = {
            let (f, cfg, cache) = (f.clone(), shared.clone(), cache.cloned());
            move || match &cache {
                Some(c) => crate::cache::verify_file(&f, &cfg, c),
                None => pipeline::verify_file(&f, &cfg),
            }
        };
        let mut r = match cfg.time_limit {
            Some(limit) => within(limit, f, verify).unwrap_or_else(|| {
                left_behind = true;
                timed_out(f, limit, cfg)
            }),
            None => verify(),
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
    if left_behind {
        // A file left running may hold the front end's temporary directory.
        frontend::remove_temp_dirs();
    }
    let counts = reports.iter().map(report::counts).fold(report::Counts::default(), |a, b| a + b);
    let style = Style { format, verbose: out.verbose, silent: out.silent };
    report::print_run(&reports, style, Some(counts), &extras);
    report::exit_code(&reports)
}

/// Runs `verify` on a thread of its own, and its report if it comes within `limit` and
/// [`ivl::deadline::wind_down`]; `None` if it does not (the thread is left running).
fn within(
    limit: Duration,
    path: &Path,
    verify: impl FnOnce() -> report::FileReport + Send + 'static,
) -> Option<report::FileReport> {
    let give_up = Instant::now() + limit + ivl::deadline::wind_down(limit);
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(format!("kivl {}", path.display()))
        .stack_size(vcgen::engine::WORKER_STACK)
        .spawn(move || {
            let _ = tx.send(verify());
        });
    if spawned.is_err() {
        return None;
    }
    rx.recv_timeout(give_up.saturating_duration_since(Instant::now())).ok()
}

/// The report of a file given up at its deadline: inconclusive, saying where it was, and, for a
/// kernel without sizes, that concrete ones help (the engine's own hint names the dimensions,
/// but its findings were given up with the file).
fn timed_out(path: &Path, limit: Duration, cfg: &VerifyConfig) -> report::FileReport {
    let source = match crate::front::read_source(path) {
        Ok(s) => s,
        Err(r) => r.source,
    };
    let kernel = frontend::Language::of(path).is_some() || source.text.contains("{:kernel}");
    let sizes = &cfg.driver.kernel;
    let hint = if kernel && (sizes.local_size.is_none() || sizes.num_groups.is_none()) {
        " (the sizes are symbolic, which makes thread-id arithmetic non-linear: try concrete ones, \
         --local-size and --num-groups)"
    } else {
        ""
    };
    let message = format!("{}{hint}", ivl::deadline::given_up(limit, progress::current()));
    report::FileReport::invalid(source, vec![Diagnostic::new(ErrorKind::Timeout, message, ivl::ast::Span::DUMMY)])
}
