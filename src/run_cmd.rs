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

/// Grid dimensions (a type name, so that clap reads one comma-separated value, not a list).
type Dims = Vec<u64>;

#[derive(clap::Args, Clone, Debug)]
pub struct RunArgs {
    /// The kernel (or plain Boogie program, with --procedure) to run.
    pub file: PathBuf,
    /// Work-group size, 1-3 dimensions (`16` or `16,16`).
    #[arg(long, value_parser = crate::parse_dims)]
    pub local_size: Option<Dims>,
    /// Number of work-groups, 1-3 dimensions (default 1).
    #[arg(long, value_parser = crate::parse_dims)]
    pub num_groups: Option<Dims>,
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
    #[arg(long, default_value_t = 20_000_000)]
    pub max_steps: u64,
    /// Run this procedure sequentially (one thread) instead of the kernel.
    #[arg(long)]
    pub procedure: Option<String>,
}

/// Runs `kivl run`; returns the exit status.
pub fn run(args: &RunArgs) -> i32 {
    match file_report(args) {
        Ok(r) => finish(vec![r], args.format),
        Err(why) => {
            eprintln!("kivl: internal error in `kivl run`: {why}");
            4
        }
    }
}

/// What `kivl run` found out about the file; `Err` for an internal error.
fn file_report(args: &RunArgs) -> Result<FileReport, String> {
    let source = match crate::front::read_source(&args.file) {
        Ok(s) => s,
        Err(r) => return Ok(r),
    };
    let program = match crate::front::checked_program(&source, &frontend::Options::default()) {
        Ok(p) => p,
        Err(d) => return Ok(FileReport::invalid(source, d)),
    };
    let inputs = match &args.inputs {
        None => Inputs::default(),
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => return Ok(FileReport::invalid(source, vec![Diagnostic::io(&path.display().to_string(), e)])),
            };
            match Inputs::from_json(&text) {
                Ok(i) => i,
                Err(e) => {
                    let d =
                        Diagnostic::syntax(format!("cannot use the inputs in `{}`: {e}", path.display()), Span::DUMMY);
                    return Ok(FileReport::invalid(source, vec![d]));
                }
            }
        }
    };
    let interp = match Interpreter::new(&program) {
        Ok(i) => i,
        Err(d) => return Ok(FileReport::invalid(source, d)),
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
    match &summary.internal {
        Some(why) => Err(why.clone()),
        None => Ok(summary_report(source, &summary, args)),
    }
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
            let ds = e
                .all()
                .map(|e| {
                    let mut d = e.diagnostic.clone();
                    d.notes.push(format!("run {} of {} (seed {})", k + 1, args.runs, e.seed));
                    d
                })
                .collect();
            (Verdict::Errors, ds, "errors")
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    fn report(text: &str, name: &str, args: &[&str]) -> FileReport {
        let path = std::env::temp_dir().join(format!("kivl-run-{}-{name}.kbpl", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let mut argv = vec!["kivl-run", path.to_str().unwrap()];
        argv.extend_from_slice(args);
        let cli = Cli::try_parse_from(argv).unwrap();
        let r = file_report(&cli.run).unwrap();
        let _ = std::fs::remove_file(&path);
        r
    }

    const RACY: &str = "var {:group_shared} A: [int]int;\nprocedure {:kernel} k()\n{\n  A[0] := local_id_x;\n}\n";

    #[test]
    fn a_race_is_an_error_report_with_both_locations() {
        let r = report(RACY, "racy", &["--local-size", "4", "--runs", "10", "--format", "json"]);
        assert_eq!(r.verdict, Verdict::Errors);
        assert_eq!(report::exit_code(std::slice::from_ref(&r)), 1);
        let json = serde_json::to_value(r.errors[0].to_json(&r.source)).unwrap();
        assert_eq!(json["kind"], "race");
        assert_eq!(json["locations"].as_array().unwrap().len(), 2);
        assert_eq!(json["locations"][0]["line"], 4);
        assert!(json["message"].as_str().unwrap().contains("write-write"));
        assert_eq!(r.extra["result"], "errors");
        assert_eq!(r.extra["runs"]["error_seed"], r.extra["runs"]["error_run"]);
    }

    #[test]
    fn a_clean_kernel_reports_no_errors_found() {
        let ok = "var {:group_shared} A: [int]int;\nprocedure {:kernel} k()\n{\n  A[local_id_x] := 1;\n}\n";
        let r = report(ok, "clean", &["--local-size", "4,2", "--num-groups", "2", "--runs", "7", "--seed", "5"]);
        assert_eq!(r.verdict, Verdict::Verified);
        assert_eq!(report::exit_code(std::slice::from_ref(&r)), 0);
        assert_eq!(r.extra["result"], "no-errors-found");
        assert_eq!(r.extra["runs"]["completed"], 7);
        assert_eq!(r.extra["runs"]["first_seed"], 5);
        assert!(r.info[0].contains("no error found"), "{:?}", r.info);
    }

    #[test]
    fn missing_sizes_and_infeasible_runs() {
        let r = report(RACY, "nosize", &[]);
        assert_eq!(r.verdict, Verdict::Invalid);
        assert_eq!(report::exit_code(std::slice::from_ref(&r)), 2);
        let never = "procedure {:kernel} k()\n{\n  assume false;\n}\n";
        let r = report(never, "never", &["--local-size", "2", "--runs", "3"]);
        assert_eq!(r.verdict, Verdict::Inconclusive);
        assert_eq!(r.extra["runs"]["infeasible"], 3);
    }
}
