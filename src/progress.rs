//! Where a `kivl verify` run is: the stage it is in, its clock per stage (`--time`, after
//! GPUVerify's `--time`), and, on a terminal, a live progress line on stderr (issue 22: a
//! 300 s Houdini run printed nothing until its end).
//!
//! One [`Monitor`] per process. The pipeline says which stage a file enters ([`stage`]); the
//! engine tells [`Monitor::observe`] what it does through `vcgen::progress` (built, checked,
//! Houdini rounds). Each stage switch adds the time since the last one to the stage left, so
//! the stages of a file add up to its wall-clock time; the solver's time is kept apart
//! (`vcgen::progress::solver_time`, summed over solver threads).
//!
//! The line is drawn with `indicatif` only when both stdout and stderr are terminals and the
//! output is for people (no `--format json|sarif|junit`, no `--silent`); it is cleared before the
//! report is printed, so it never mixes with it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};
use vcgen::progress::{Observer, Progress};

/// The stages a file's time is divided into (`--time`), in the order they are printed, with
/// their JSON names.
pub const STAGES: [(Stage, &str, &str); 6] = [
    (Stage::FrontEnd, "front end", "frontend_ms"),
    (Stage::Passes, "passes", "passes_ms"),
    (Stage::VcGen, "VC generation", "vcgen_ms"),
    (Stage::Houdini, "Houdini", "houdini_ms"),
    (Stage::Verifying, "verifying", "verifying_ms"),
    (Stage::Replay, "replay", "replay_ms"),
];

/// A stage of a file's run. `Verifying` is the engine without Houdini, where the VC of each
/// implementation is built and checked at once; with Houdini, `VcGen` is the building before
/// the first round and `Houdini` the rounds (whose last gives the verdict).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    FrontEnd,
    Passes,
    VcGen,
    Houdini,
    Verifying,
    Replay,
}

impl Stage {
    fn index(self) -> usize {
        STAGES.iter().position(|(s, _, _)| *s == self).expect("a listed stage")
    }

    fn name(self) -> &'static str {
        STAGES[self.index()].1
    }
}

/// A file's times, once it is done.
#[derive(Clone, Debug, Default)]
pub struct FileTimes {
    /// Per entry of [`STAGES`].
    pub stages: [Duration; 6],
    /// In solver checks, summed over threads.
    pub solver: Duration,
}

/// What the line shows and the clock of the current file.
#[derive(Default)]
struct State {
    file: String,
    stage: Option<Stage>,
    since: Option<Instant>,
    times: FileTimes,
    solver_at_start: Duration,
    /// The implementation being checked, and how far the engine is.
    detail: String,
}

/// The process's monitor: the stage clock and, on a terminal, the progress line.
pub struct Monitor {
    state: Mutex<State>,
    bar: Option<ProgressBar>,
}

static MONITOR: OnceLock<Monitor> = OnceLock::new();

/// Whether a progress line may be drawn: people are watching both output streams.
pub fn terminal_attended() -> bool {
    std::io::stderr().is_terminal() && std::io::stdout().is_terminal()
}

/// Installs the process's monitor (once; later calls keep the first); `line`: draw the
/// progress line. Returns the observer to hand the engine.
pub fn install(line: bool) -> Observer {
    let monitor = MONITOR.get_or_init(|| Monitor { state: Mutex::default(), bar: line.then(progress_bar) });
    Observer::new(move |p| monitor.observe(p))
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10));
    let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The file `name` starts: its clock starts in the front end.
pub fn start_file(name: &str) {
    if let Some(m) = MONITOR.get() {
        let mut s = m.lock();
        *s = State { file: name.to_string(), solver_at_start: vcgen::progress::solver_time(), ..State::default() };
        m.switch(&mut s, Some(Stage::FrontEnd));
    }
}

/// The current file enters `stage`.
pub fn stage(stage: Stage) {
    if let Some(m) = MONITOR.get() {
        let mut s = m.lock();
        m.switch(&mut s, Some(stage));
    }
}

/// The current file is done: its times.
pub fn finish_file() -> FileTimes {
    let Some(m) = MONITOR.get() else { return FileTimes::default() };
    let mut s = m.lock();
    m.switch(&mut s, None);
    s.times.solver = vcgen::progress::solver_time().saturating_sub(s.solver_at_start);
    s.times.clone()
}

/// Clears the progress line (before the report is printed).
pub fn clear() {
    if let Some(bar) = MONITOR.get().and_then(|m| m.bar.as_ref()) {
        bar.finish_and_clear();
    }
}

/// The name of the stage the current file is in (`None` between files).
pub fn current() -> Option<&'static str> {
    MONITOR.get().and_then(|m| m.lock().stage).map(Stage::name)
}

/// An implementation's name as the line shows it: the vacuity check the two-thread path adds
/// to a kernel (`k$vacuity`) is named after the kernel.
fn shown(name: &str) -> String {
    match name.strip_suffix("$vacuity") {
        Some(kernel) => format!("`{kernel}` (vacuity check)"),
        None => format!("`{name}`"),
    }
}

impl Monitor {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Charges the time since the last switch to the stage left, and enters `to`.
    fn switch(&self, s: &mut State, to: Option<Stage>) {
        let now = Instant::now();
        if let (Some(stage), Some(since)) = (s.stage, s.since) {
            s.times.stages[stage.index()] += now - since;
        }
        if s.stage != to {
            s.detail.clear();
        }
        s.stage = to;
        s.since = Some(now);
        self.draw(s);
    }

    /// What the engine reports.
    fn observe(&self, p: &Progress) {
        let mut s = self.lock();
        match *p {
            Progress::Started { impls, houdini } => {
                self.switch(&mut s, Some(if houdini { Stage::VcGen } else { Stage::Verifying }));
                s.detail = format!("{impls} implementation{}", if impls == 1 { "" } else { "s" });
            }
            Progress::Built { name, done, total } if s.stage == Some(Stage::Verifying) => {
                s.detail = format!("checking {} ({done} of {total})", shown(name));
            }
            Progress::Built { name, done, total } => s.detail = format!("built {} ({done} of {total})", shown(name)),
            Progress::Checked { name, done, total } => s.detail = format!("{} done ({done} of {total})", shown(name)),
            Progress::Round { round, left, candidates, impls } => {
                if s.stage != Some(Stage::Houdini) {
                    self.switch(&mut s, Some(Stage::Houdini));
                }
                let noun = if impls == 1 { "implementation" } else { "implementations" };
                s.detail = format!("round {round}, {left} of {candidates} candidates left, {impls} {noun}");
            }
            Progress::Finished => self.switch(&mut s, Some(Stage::Passes)),
        }
        self.draw(&s);
    }

    fn draw(&self, s: &State) {
        if let (Some(bar), Some(stage)) = (&self.bar, s.stage) {
            let detail = if s.detail.is_empty() { String::new() } else { format!(": {}", s.detail) };
            bar.set_message(format!("{}: {}{detail}", s.file, stage.name()));
        }
    }
}
