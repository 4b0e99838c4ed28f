//! `kivl verify --time`: how long each file took, per stage and per implementation, printed
//! after the report as GPUVerify's `--time` prints its stages' times, and in the JSON under
//! `time` (docs/kbpl.md §8.4).
//!
//! The stages ([`crate::progress::STAGES`]) divide a file's wall-clock time; the solver's
//! time is the time spent in Z3 checks summed over solver threads (with `--jobs` above 1 it
//! may exceed the wall-clock time). An implementation's time is the engine's: its encoding
//! and final checks (with Houdini, its rounds).

use crate::progress::{FileTimes, STAGES};
use crate::report::FileReport;
use serde_json::{json, Value};
use std::time::Duration;

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

pub fn secs(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// The implementations of a report with their times, from its JSON fields.
fn impl_times(r: &FileReport) -> Vec<(String, u64)> {
    let impls = r.extra.get("implementations").and_then(|v| v.as_array());
    impls
        .into_iter()
        .flatten()
        .filter_map(|i| Some((i["name"].as_str()?.to_string(), i["time_ms"].as_u64()?)))
        .collect()
}

/// Houdini's rounds in a report, if it ran.
fn rounds(r: &FileReport) -> Option<u64> {
    r.extra.get("houdini").and_then(|h| h["rounds"].as_u64())
}

/// The `stages` object: each stage's JSON name with its time, `of(i)` for stage `i`.
fn stages_json(of: impl Fn(usize) -> Duration) -> Value {
    STAGES.iter().enumerate().map(|(i, (_, _, key))| (key.to_string(), Value::from(ms(of(i))))).collect()
}

/// A file's `time` object.
pub fn file_json(r: &FileReport, t: &FileTimes, total: Duration) -> Value {
    let stages = stages_json(|i| t.stages[i]);
    let impls: Vec<Value> =
        impl_times(r).into_iter().map(|(name, ms)| json!({ "name": name, "time_ms": ms })).collect();
    json!({
        "total_ms": ms(total),
        "stages": stages,
        "solver_ms": ms(t.solver),
        "houdini_rounds": rounds(r),
        "implementations": impls,
    })
}

/// A file's lines of the human output.
pub fn file_lines(r: &FileReport, t: &FileTimes, total: Duration) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for (i, (_, name, _)) in STAGES.iter().enumerate() {
        if !t.stages[i].is_zero() {
            parts.push(format!("{name} {}", secs(t.stages[i])));
        }
    }
    let rounds = rounds(r).map(|n| format!(", {n} Houdini round{}", if n == 1 { "" } else { "s" }));
    let mut lines = vec![format!(
        "time: {}: {} ({}); solver {} (summed over threads){}",
        r.source.name,
        secs(total),
        parts.join(", "),
        secs(t.solver),
        rounds.unwrap_or_default()
    )];
    for (name, ms) in impl_times(r) {
        lines.push(format!("time:   `{name}` {}", secs(Duration::from_millis(ms))));
    }
    lines
}

/// The run's `time` object: the stages summed over files.
pub fn run_json(files: &[(FileTimes, Duration)], total: Duration) -> Value {
    let stages = stages_json(|i| files.iter().map(|(t, _)| t.stages[i]).sum());
    let solver: Duration = files.iter().map(|(t, _)| t.solver).sum();
    json!({ "total_ms": ms(total), "stages": stages, "solver_ms": ms(solver) })
}

/// The CPU time of the calling thread: what it spent, however loaded the machine is (the
/// language server's own cost).
pub fn thread_cpu_time() -> Duration {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The CPU time of the process so far, all threads (what a `kivl watch` verification cost).
pub fn process_cpu_time() -> Duration {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn cpu_clock(id: libc::clockid_t) -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write to; the clock id is a constant of the platform.
    if unsafe { libc::clock_gettime(id, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
