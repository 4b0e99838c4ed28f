//! The scheduler: the set of runnable threads and the choice of the next one (seeded random or
//! round-robin, `kivl run --schedule`), and the run loop.

use super::{Machine, TState};
use crate::interleaving::config::Schedule;
use crate::interleaving::eval::Stop;

impl Machine<'_> {
    pub(super) fn make_unrunnable(&mut self, t: usize) {
        let p = self.pos[t];
        if p == u32::MAX {
            return;
        }
        let last = *self.runnable.last().unwrap();
        self.runnable.swap_remove(p as usize);
        if last as usize != t {
            self.pos[last as usize] = p;
        }
        self.pos[t] = u32::MAX;
    }

    pub(super) fn make_runnable(&mut self, t: usize) {
        if self.pos[t] == u32::MAX {
            self.pos[t] = self.runnable.len() as u32;
            self.runnable.push(t as u32);
        }
    }

    pub(super) fn pick(&mut self) -> Option<usize> {
        if self.runnable.is_empty() {
            return None;
        }
        match self.schedule {
            Schedule::Random => Some(self.runnable[self.rng.below(self.runnable.len() as u64) as usize] as usize),
            Schedule::RoundRobin => {
                let n = self.threads.len();
                for k in 0..n {
                    let t = (self.rr + k) % n;
                    if self.pos[t] != u32::MAX {
                        self.rr = t + 1;
                        return Some(t);
                    }
                }
                None
            }
        }
    }

    /// Runs to the end. `Ok` when every thread finished.
    pub fn run(&mut self) -> Result<(), Stop> {
        while let Some(t) = self.pick() {
            self.step(t)?;
        }
        if let Some(t) = self.threads.iter().position(|th| !matches!(th.state, TState::Done)) {
            return Err(Stop::Internal(format!("thread {t} is blocked but no thread can run")));
        }
        Ok(())
    }
}
