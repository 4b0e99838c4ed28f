//! The fixpoint: the assignment, all candidates true at first, loses the candidates that checks
//! refute until every implementation holds under it, or a non-candidate failure stops the
//! search. [`fixpoint`] computes it in Boogie's rounds (the refutations of a round applied after
//! it); [`Search`] is what every search shares, the rounds and the asynchronous strategy
//! (`crate::engine::asynchronous`, which applies each refutation as soon as it is found): the
//! assignment, the statistics, and what the result of one check means ([`Search::apply`]).

use super::results::{Assignment, HoudiniStats, ImplRound};
use crate::HashSet;
use ivl::ast::Name;
use std::time::Instant;

/// A Houdini search under way: the current assignment and the statistics so far.
pub struct Search {
    pub assignment: Assignment,
    pub stats: HoudiniStats,
    start: Instant,
}

/// What one check's result means for an asynchronous search ([`Search::apply`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A non-candidate failure: the search stops; the round is the implementation's outcome.
    Stop,
    /// Inconclusive without refuting anything: not checked again (Boogie's black list).
    GiveUp,
    /// Still refuting a candidate after the stop, when the assignment is kept: the
    /// implementation stays unsettled.
    Unsettled,
    /// These candidates, true until now, are refuted (now false): the implementations that
    /// mention them must be checked again.
    Refuted(Vec<Name>),
    /// Every checked assertion holds under the current assignment.
    Holds,
    /// Nothing new: refutations already applied, or a proof under an older assignment.
    Nothing,
}

impl Search {
    /// Every candidate true.
    pub fn new(candidates: &[Name]) -> Search {
        let start = Instant::now();
        Search {
            assignment: candidates.iter().map(|c| (c.clone(), true)).collect(),
            stats: HoudiniStats { candidates: candidates.to_vec(), ..Default::default() },
            start,
        }
    }

    /// Every candidate true but those of `start_false` (a warm start, [`super::warm`]).
    pub fn starting(candidates: &[Name], start_false: &HashSet<Name>) -> Search {
        let mut search = Search::new(candidates);
        search.stats.warm = search.refute(start_false).len();
        search
    }

    /// Sets the `refuted` candidates false; returns those that were true until now.
    pub fn refute<'a>(&mut self, refuted: impl IntoIterator<Item = &'a Name>) -> Vec<Name> {
        let mut newly = Vec::new();
        for c in refuted {
            if let Some(v @ true) = self.assignment.get_mut(c) {
                *v = false;
                newly.push(c.clone());
            }
        }
        newly
    }

    /// Reads the result of one check of an implementation not yet settled, made under `used`,
    /// and applies its refutations at once (a new assignment counts as a round).
    pub fn apply(&mut self, round: &ImplRound, used: &Assignment) -> Step {
        if round.stops() {
            self.stats.stopped = true;
            return Step::Stop;
        }
        if round.gave_up() {
            return Step::GiveUp;
        }
        // Refutations already applied (another unit's, or this one's own reported again) are
        // no news after the stop either: the unit checks again under the kept assignment.
        if self.stats.stopped && round.refuted.iter().any(|c| self.assignment.get(c) == Some(&true)) {
            return Step::Unsettled;
        }
        let newly = self.refute(&round.refuted);
        if !newly.is_empty() {
            self.stats.rounds += 1;
            Step::Refuted(newly)
        } else if round.valid() && *used == self.assignment {
            Step::Holds
        } else {
            Step::Nothing
        }
    }

    /// The statistics with the final assignment.
    pub fn finish(mut self) -> HoudiniStats {
        self.stats.kept = self.assignment.values().filter(|v| **v).count();
        self.stats.time = self.start.elapsed();
        self.stats.assignment = self.assignment;
        self.stats
    }
}

/// Runs Houdini (Boogie's `/contractInfer`) from every candidate true but `start_false`.
/// `mentions[i]` are the candidates implementation `i` mentions; `run_round(assignment, worklist)` checks the listed implementations (possibly
/// in parallel) and returns each one's [`ImplRound`] with its number of checks.
///
/// As in Boogie: refutations are applied after each round and the implementations that refuted
/// something or mention a refuted candidate are checked again; a non-candidate failure *stops*
/// the search: the assignment stays as it is (that round's refutations are not applied), and
/// the implementations still waiting are checked once more under it without refuting anything.
/// Returns the statistics and each implementation's last round, which decides its outcome.
pub fn fixpoint<F>(
    candidates: &[Name],
    start_false: &HashSet<Name>,
    mentions: &[HashSet<Name>],
    mut run_round: F,
) -> (HoudiniStats, Vec<Option<ImplRound>>)
where
    F: FnMut(&Assignment, &[usize]) -> Vec<(usize, ImplRound, usize)>,
{
    let mut search = Search::starting(candidates, start_false);
    let mut worklist: Vec<usize> = (0..mentions.len()).collect();
    let mut last: Vec<Option<ImplRound>> = vec![None; mentions.len()];
    // Implementations whose check timed out are not checked again (Boogie's black list).
    let mut given_up: HashSet<usize> = HashSet::default();
    while !worklist.is_empty() {
        search.stats.rounds += 1;
        let results = run_round(&search.assignment, &worklist);
        let mut newly: HashSet<Name> = HashSet::default();
        let mut refuters: HashSet<usize> = HashSet::default();
        let mut stop = false;
        for (i, r, checks) in results {
            search.stats.checks += checks;
            search.stats.note_limit(&r);
            stop |= r.stops();
            if r.gave_up() {
                given_up.insert(i);
            }
            if !r.refuted.is_empty() {
                refuters.insert(i);
                newly.extend(r.refuted.iter().cloned());
            }
            last[i] = Some(r);
        }
        if stop {
            search.stats.stopped = true;
            flush(&mut search, &refuters, &mut last, &mut run_round);
            break;
        }
        if newly.is_empty() {
            break;
        }
        search.refute(&newly);
        worklist = (0..mentions.len())
            .filter(|i| {
                !given_up.contains(i) && (refuters.contains(i) || mentions[*i].iter().any(|c| newly.contains(c)))
            })
            .collect();
    }
    (search.finish(), last)
}

/// Boogie's flush after a stop: the implementations that were still refuting (without a failure
/// of their own) are checked once more under the current assignment, which is kept.
fn flush<F>(search: &mut Search, refuters: &HashSet<usize>, last: &mut [Option<ImplRound>], run_round: &mut F)
where
    F: FnMut(&Assignment, &[usize]) -> Vec<(usize, ImplRound, usize)>,
{
    let rest: Vec<usize> =
        refuters.iter().copied().filter(|&i| last[i].as_ref().is_some_and(|r| r.errors.is_empty())).collect();
    if !rest.is_empty() {
        search.stats.rounds += 1;
        for (i, r, checks) in run_round(&search.assignment, &rest) {
            search.stats.checks += checks;
            search.stats.note_limit(&r);
            last[i] = Some(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Houdini over one implementation mentioning `a` and `b` whose first check refutes `a`
    /// and then stops for `first_stopped` (if any); the next check proves the rest.
    fn search(first_stopped: Option<&str>) -> HoudiniStats {
        let (a, b) = (Name::from("a"), Name::from("b"));
        let mentions = [[a.clone(), b.clone()].into_iter().collect()];
        let mut round = 0;
        let (stats, _) = fixpoint(&[a.clone(), b], &HashSet::default(), &mentions, |_, worklist| {
            round += 1;
            let r = if round == 1 {
                ImplRound {
                    refuted: vec![a.clone()],
                    inconclusive: first_stopped.map(String::from),
                    ..Default::default()
                }
            } else {
                ImplRound::default()
            };
            worklist.iter().map(|&i| (i, r.clone(), 1)).collect()
        });
        stats
    }

    /// After a real failure stops an asynchronous search, a check that refutes a candidate
    /// still true leaves its implementation unsettled, while one whose refutations were all
    /// applied already (another unit's, reported first) is no news: the unit checks again
    /// under the kept assignment and can still prove it.
    #[test]
    fn refutations_applied_before_the_stop_do_not_unsettle() {
        let (a, b) = (Name::from("a"), Name::from("b"));
        let mut search = Search::new(&[a.clone(), b.clone()]);
        let refuting = |c: &Name| ImplRound { refuted: vec![c.clone()], ..Default::default() };
        assert_eq!(search.apply(&refuting(&a), &search.assignment.clone()), Step::Refuted(vec![a.clone()]));
        let failure = ivl::diag::Diagnostic::new(ivl::diag::ErrorKind::Assertion, "real failure", Default::default());
        let stop = ImplRound { errors: vec![failure], ..Default::default() };
        assert_eq!(search.apply(&stop, &search.assignment.clone()), Step::Stop);
        let before_stop: Assignment = [(a.clone(), true), (b.clone(), true)].into_iter().collect();
        assert_eq!(search.apply(&refuting(&a), &before_stop), Step::Nothing);
        assert_eq!(search.apply(&refuting(&b), &before_stop), Step::Unsettled);
        assert_eq!(search.apply(&ImplRound::default(), &search.assignment.clone()), Step::Holds);
    }

    #[test]
    fn a_check_that_stopped_early_is_in_the_statistics() {
        let limited = search(Some("timed out after 1 s (--timeout)"));
        assert_eq!(limited.limited.as_deref(), Some("timed out after 1 s (--timeout)"));
        assert_eq!((limited.kept, limited.rounds), (1, 2));
        // Its twin: every check came to a verdict.
        let complete = search(None);
        assert_eq!(complete.limited, None);
        assert_eq!((complete.kept, complete.rounds), (1, 2));
    }
}
