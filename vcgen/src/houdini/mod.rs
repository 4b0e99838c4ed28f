//! Houdini: the largest set of candidate annotations that can be assumed true such that every
//! candidate annotation holds (Flanagan & Leino, "Houdini, an annotation assistant for
//! ESC/Java", 2001; Boogie's `/contractInfer`; seed 001 §4.3, where GPUVerify generates the
//! candidate loop invariants and contracts that Houdini filters).
//!
//! Candidates are boolean constants `const {:existential true} b: bool;` used as guards
//! `b ==> φ` (Boogie's convention, and GPUVerify's output), and clauses marked `{:candidate}`
//! (docs/kbpl.md §5.4), which [`guard_candidates`] turns into such guards before desugaring.
//!
//! The algorithm ([`fixpoint`]) is Boogie 2.4.1's: start with every candidate true; check the
//! implementations' VCs under the current assignment, enumerating up to `/errorLimit` failing
//! assertions per check ([`check`]); a failing assertion `b ==> φ` whose guard `b` is a true
//! candidate refutes `b`; repeat until no candidate is refuted. A failing assertion that no
//! candidate guards *stops* the search (Boogie's "abort on a non-candidate violation"): it is
//! reported, with the other non-candidate failures of that check, under the assignment of that
//! moment. Such an error is real whatever the remaining candidates: refutation only removes
//! assumptions. Without one, every implementation's last check proved it under the final
//! assignment, the greatest fixpoint (refutation is monotone, so the order of checks does not
//! matter — which lets independent implementations be checked in parallel, round by round, and
//! re-checked only when a candidate they mention was refuted).
//!
//! One departure from Boogie saves checks without changing the result: a model that fails a
//! candidate's assertion also shows every later assertion of the same straight run of asserts
//! (no `assume` between, so the same state; [`crate::wp::Failure::also`]) that is false in it.
//! Once the earlier ones are refuted, that execution fails at each of them, so their candidates
//! are refuted by the same check, up to the first such assertion that no true candidate guards
//! (an execution stops at a real failure). GPUVerify puts dozens of candidate invariants in a
//! row at each loop head.
//!
//! The VC of each implementation is built and asserted once: candidates enter each check as
//! assumption literals `b` / `¬b` ([`check`]). One implementation can also be checked on several
//! solvers at once, each checking a share of its assertions and assuming the others: a failure
//! found so is a real failure, and if every share holds then all assertions hold (the first
//! failing assertion of any execution would be found by the share that owns it). The shares are
//! disjoint and dealt by candidate (`shares`).
//!
//! Where each part lives: [`check`] (one check of one implementation: candidate refutation,
//! [`crate::wp::Failure::also`], the non-candidate failures) and [`round`] (a check made into
//! an [`ImplRound`]); [`fixpoint`] (the search in Boogie's rounds) and [`Search`] (the state
//! every search shares: the assignment, the statistics, the stop, and what one round's result
//! means); [`guard_candidates`] (`{:candidate}` clauses); `warm` (the warm start of a
//! re-verification: candidates known across edits by a [`CandidateId`], those refuted last
//! time started false). The engine's Houdini strategies
//! (`crate::engine`'s `rounds` and `asynchronous`) only schedule these checks on workers.

mod candidates;
mod refute;
mod results;
mod search;
mod shares;
mod warm;

pub use candidates::guard_candidates;
pub use refute::{check, literals, round, Checked, Part, Report};
pub use results::{Assignment, HoudiniStats, ImplRound, STOPPED_ELSEWHERE};
pub use search::{fixpoint, Search, Step};
pub use shares::{deal, share_of};
pub use warm::{callees, identities, start_false, CandidateId, WarmStart};
