//! `kivl run`: executes a kernel under the interleaving semantics (seed 000 §3) many times with
//! seeded random (or round-robin) schedules and reports the first race, barrier divergence or
//! assertion failure a run shows — with both accesses, the thread ids and the seed that replays
//! it. A clean result means "no error found in K runs", never "verified".
//!
//! Exit status: 0 no run showed a problem; 1 a run showed one; 2 invalid input; 3 no run got to
//! the end (all infeasible or over the step limit); 4 internal error.

use crate::report::{self, FileReport, Format, Verdict};
use gpu_passes::interleaving::{self as il, Inputs, Interpreter, RunConfig, Schedule};
use ivl::ast::Span;
use ivl::diag::Diagnostic;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScheduleArg {
    Random,
    RoundRobin,
}

#[derive(clap::Args, Clone, Debug)]
pub struct RunArgs {
    /// The kernel (or plain Boogie program, with --procedure) to run.
    pub file: PathBuf,
    /// Work-group size, 1-3 dimensions (`16` or `16,16`).
    #[arg(long, value_parser = crate::parse_dims)]
    pub local_size: Option<Vec<u64>>,
    /// Number of work-groups, 1-3 dimensions (default 1).
    #[arg(long, value_parser = crate::parse_dims)]
    pub num_groups: Option<Vec<u64>>,
    /// How the next thread is chosen.
    #[arg(long, value_enum, default_value = "random")]
    pub schedule: ScheduleArg,
    /// Seed of the first run; run k uses seed + k.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of runs (stops at the first error).
    #[arg(long, default_value_t = 100)]
    pub runs: u64,
    /// Fixed inputs: {"params": {...}, "memory": {...}, "consts": {...}}.
    #[arg(long)]
    pub inputs: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Report two writes of the same value as a race.
    #[arg(long)]
    pub no_benign_tolerance: bool,
    /// Instructions per run (all threads together) before a run is abandoned.
    #[arg(long, default_value_t = 50_000_000)]
    pub max_steps: u64,
    /// Run this procedure sequentially (one thread) instead of the kernel.
    #[arg(long)]
    pub procedure: Option<String>,
}

/// Runs `kivl run`; returns the exit status.
pub fn run(args: &RunArgs) -> i32 {
    let source = match crate::pipeline::read_source(&args.file) {
        Ok(s) => s,
        Err(r) => return finish(vec![r], args.format),
    };
    let program = match crate::pipeline::checked_program(&source) {
        Ok(p) => p,
        Err(d) => return finish(vec![FileReport::invalid(source, d)], args.format),
    };
    let inputs = match &args.inputs {
        None => Inputs::default(),
        Some(path) => match std::fs::read_to_string(path).map_err(|e| e.to_string()).and_then(|t| Inputs::from_json(&t)) {
            Ok(i) => i,
            Err(e) => {
                let d = Diagnostic::syntax(format!("cannot use the inputs in `{}`: {e}", path.display()), Span::DUMMY);
                return finish(vec![FileReport::invalid(source, vec![d])], args.format);
            }
        },
    };
    let interp = match Interpreter::new(&program) {
        Ok(i) => i,
        Err(d) => return finish(vec![FileReport::invalid(source, d)], args.format),
    };
    let cfg = RunConfig {
        local_size: args.local_size.clone(),
        num_groups: args.num_groups.clone(),
        seed: args.seed,
        schedule: match args.schedule {
            ScheduleArg::Random => Schedule::Random,
            ScheduleArg::RoundRobin => Schedule::RoundRobin,
        },
        benign_tolerance: !args.no_benign_tolerance,
        max_steps: args.max_steps,
        inputs,
        threads: None,
    };
    let summary = match &args.procedure {
        Some(name) => il::run_many_with(&cfg, args.runs, |c| interp.run_procedure(name, c)),
        None => il::run_many(&interp, &cfg, args.runs),
    };
    if let Some(why) = &summary.internal {
        eprintln!("kivl: internal error in `kivl run`: {why}");
        return 4;
    }
    finish(vec![summary_report(source, &summary, args)], args.format)
}

fn summary_report(source: ivl::diag::SourceFile, s: &il::RunSummary, args: &RunArgs) -> FileReport {
    if let Some(d) = &s.invalid {
        return FileReport::invalid(source, d.clone());
    }
    let schedule = match args.schedule {
        ScheduleArg::Random => "random",
        ScheduleArg::RoundRobin => "round-robin",
    };
    let (verdict, errors, result) = match &s.error {
        Some((k, e)) => {
            let mut d = e.diagnostic.clone();
            d.notes.push(format!("run {} of {} (seed {})", k + 1, args.runs, e.seed));
            (Verdict::Errors, vec![d], "errors")
        }
        None if s.completed == 0 => (Verdict::Inconclusive, Vec::new(), "no-run-completed"),
        None => (Verdict::Verified, Vec::new(), "no-errors-found"),
    };
    let mut r = FileReport::new(source, verdict, errors);
    r.extra.insert("result".into(), result.into());
    let mut runs = serde_json::json!({
        "requested": args.runs,
        "executed": s.runs,
        "completed": s.completed,
        "infeasible": s.infeasible,
        "step_limit": s.limited,
        "first_seed": args.seed,
        "schedule": schedule,
        "steps": s.steps,
    });
    if let Some((k, e)) = &s.error {
        runs["error_run"] = (*k).into();
        runs["error_seed"] = e.seed.into();
        runs["threads"] = e.threads.iter().map(|t| t.to_string()).collect::<Vec<_>>().into();
    }
    r.extra.insert("runs".into(), runs);
    let mut line = format!(
        "kivl run: {} run{} (seeds {}..{}, {schedule} schedule): {} completed, {} infeasible, {} over the step limit",
        s.runs,
        if s.runs == 1 { "" } else { "s" },
        args.seed,
        args.seed.wrapping_add(s.runs.saturating_sub(1)),
        s.completed,
        s.infeasible,
        s.limited
    );
    line.push_str(match result {
        "errors" => "; an error was found",
        "no-run-completed" => "; no run got to the end, nothing was shown",
        _ => "; no error found",
    });
    r.info.push(line);
    if let Some(why) = &s.infeasible_reason {
        r.info.push(format!("  first infeasible run: {why}"));
    }
    if let Some(why) = &s.limit_reason {
        r.info.push(format!("  first abandoned run: {why}"));
    }
    r
}

fn finish(reports: Vec<FileReport>, format: Format) -> i32 {
    report::print(&reports, format, None);
    report::exit_code(&reports)
}
