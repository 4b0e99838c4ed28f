//! The wall-clock end of a whole run: `kivl verify --timeout N` (issue 42).
//!
//! Why a deadline and not only a limit per search: users put kivl in CI jobs and editors with a
//! budget, and a limit that each Houdini round or error search gets afresh let `--timeout 5`
//! run for 45 s. A [`Deadline`] is fixed once, when a file's run starts, and every solver search
//! of that run ends by it (`vcgen::solver::VcSolver::begin` takes the earlier of the search's
//! own limit and the deadline), and the front end kills clang when it passes. What runs
//! neither in the solver nor in a tool (the translation, the passes) is not interrupted from
//! inside; the command line gives up on it at the deadline (`src/verify_run.rs`).
//!
//! Its `Debug` form shows the limit, not the instant: run configurations are compared and
//! hashed through `Debug` (the verdict cache), and two runs with the same `--timeout` are the
//! same run.

use std::time::{Duration, Instant};

/// When a run must have ended, and the limit it was given (for messages).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    at: Instant,
    limit: Duration,
}

impl Deadline {
    /// `limit` from `start` (a run that started earlier, e.g. with the process).
    pub fn from(start: Instant, limit: Duration) -> Deadline {
        Deadline { at: start + limit, limit }
    }

    /// The deadline of a run given `limit` from now, whose searches must have stopped, and
    /// their verdicts been reported, by then: [`wind_down`] before the limit, so that what
    /// comes after a search (reporting, the next implementation's set-up) still fits in it.
    pub fn for_run(limit: Duration) -> Deadline {
        Deadline { at: Instant::now() + limit.saturating_sub(wind_down(limit)), limit }
    }

    pub fn at(&self) -> Instant {
        self.at
    }

    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// The time left, zero once passed.
    pub fn remaining(&self) -> Duration {
        self.at.saturating_duration_since(Instant::now())
    }

    pub fn passed(&self) -> bool {
        Instant::now() >= self.at
    }

    /// What a check stopped by the deadline reports (docs/kbpl.md §8.1).
    pub fn message(&self) -> String {
        timed_out_after(self.limit, "--timeout")
    }
}

/// `timed out after N s (OPTION)`: the words of every time limit, `--timeout`'s and
/// `--search-timeout`'s.
pub fn timed_out_after(limit: Duration, option: &str) -> String {
    format!("timed out after {} s ({option})", secs(limit))
}

/// What a file given up at its `--timeout` reports: the stage it was in, if known, and that it
/// has no verdict (the front end stopping clang, the command line giving up a run).
pub fn given_up(limit: Duration, stage: Option<&str>) -> String {
    let stage = stage.map_or(String::new(), |s| format!(" in the {s} stage"));
    format!("{}{stage}; no verdict", timed_out_after(limit, "--timeout"))
}

impl std::fmt::Debug for Deadline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Deadline({} s)", secs(self.limit))
    }
}

/// How long before a run's limit its searches stop ([`Deadline::for_run`]), and how long after
/// the limit the command line waits before giving up a run that has not ended (the passes and
/// the translation, and a Z3 check deaf to interrupts, cannot be stopped from inside): 5 % of
/// the limit, at least 0.25 s and at most 1 s. A run thus ends within 10 % of its limit, or
/// 0.5 s for limits under 5 s (issue 42).
pub fn wind_down(limit: Duration) -> Duration {
    (limit / 20).clamp(Duration::from_millis(250), Duration::from_secs(1)).min(limit / 2)
}

/// Seconds as the user wrote them: `5`, or `0.5` for a fraction.
pub fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_passes_and_says_its_limit() {
        let d = Deadline::from(Instant::now() - Duration::from_secs(2), Duration::from_secs(1));
        assert!(d.passed());
        assert_eq!(d.remaining(), Duration::ZERO);
        assert_eq!(d.message(), "timed out after 1 s (--timeout)");
        let later = Deadline::from(Instant::now(), Duration::from_millis(60_500));
        assert!(!later.passed());
        assert!(later.remaining() > Duration::from_secs(60));
        // Two runs with the same limit look the same to the cache's key.
        assert_eq!(format!("{later:?}"), "Deadline(60.5 s)");
        assert_eq!(
            given_up(Duration::from_secs(5), Some("passes")),
            "timed out after 5 s (--timeout) in the passes stage; no verdict"
        );
        assert_eq!(given_up(Duration::from_secs(5), None), "timed out after 5 s (--timeout); no verdict");
    }

    #[test]
    fn a_run_stops_its_searches_a_little_before_its_limit() {
        assert_eq!(wind_down(Duration::from_secs(5)), Duration::from_millis(250));
        assert_eq!(wind_down(Duration::from_secs(60)), Duration::from_secs(1));
        assert_eq!(wind_down(Duration::from_millis(200)), Duration::from_millis(100));
        let d = Deadline::for_run(Duration::from_secs(10));
        assert!(d.remaining() <= Duration::from_millis(9500) && d.remaining() > Duration::from_secs(9));
        assert_eq!(d.message(), "timed out after 10 s (--timeout)");
    }
}
