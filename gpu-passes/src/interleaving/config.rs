//! What a run is asked to do: the grid (work-group size and number of groups), the seed and
//! schedule, benign-write tolerance, the step budget, fixed inputs and the threads to run; and
//! the name of a thread of the grid.

use super::inputs::Inputs;
use std::fmt;

/// How the scheduler picks the next thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Schedule {
    #[default]
    Random,
    RoundRobin,
}

impl Schedule {
    /// The name `kivl run --schedule` takes.
    pub fn as_str(self) -> &'static str {
        match self {
            Schedule::Random => "random",
            Schedule::RoundRobin => "round-robin",
        }
    }
}

/// A thread of the grid: its local id and its group id (x, y, z).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThreadId {
    pub local: [u32; 3],
    pub group: [u32; 3],
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one_d = self.local[1..] == [0, 0] && self.group[1..] == [0, 0];
        if one_d {
            write!(f, "thread {} of group {}", self.local[0], self.group[0])
        } else {
            let [a, b, c] = self.local;
            let [x, y, z] = self.group;
            write!(f, "thread ({a},{b},{c}) of group ({x},{y},{z})")
        }
    }
}

/// One run's configuration.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Work-group size (1 to 3 dimensions); `None`: fixed by axioms, or an error.
    pub local_size: Option<Vec<u64>>,
    /// Number of groups; `None`: fixed by axioms, or 1.
    pub num_groups: Option<Vec<u64>>,
    pub seed: u64,
    pub schedule: Schedule,
    /// Two writes of the same value are not a race (docs/kbpl.md §7 default).
    pub benign_tolerance: bool,
    /// Instructions executed (all threads together) before the run is abandoned.
    pub max_steps: u64,
    pub inputs: Inputs,
    /// Run only these threads (replaying a counterexample about a few threads); `None`: all.
    pub threads: Option<Vec<ThreadId>>,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            local_size: None,
            num_groups: None,
            seed: 0,
            schedule: Schedule::Random,
            benign_tolerance: true,
            max_steps: 20_000_000,
            inputs: Inputs::default(),
            threads: None,
        }
    }
}
