//! What Houdini finds: the assignment of the candidates, what one check of an implementation
//! found ([`ImplRound`], and what that means for the search), and the statistics with the final
//! assignment ([`HoudiniStats`]).

use ivl::ast::*;
use std::collections::BTreeMap;

/// A value for every candidate.
pub type Assignment = BTreeMap<Name, bool>;

/// What one implementation's check in one round found.
#[derive(Clone, Debug, Default)]
pub struct ImplRound {
    /// Candidates refuted by this implementation (applied after the round).
    pub refuted: Vec<Name>,
    /// Failing assertions that no true candidate guards, as diagnostics (filled by the caller
    /// of [`crate::houdini::check`], which knows how to report them). Any such failure stops Houdini.
    pub errors: Vec<ivl::diag::Diagnostic>,
    /// Set when the checks stopped without a verdict (timeout); no further refutations from it.
    pub inconclusive: Option<String>,
}

impl ImplRound {
    /// A round that settles nothing: the checks stopped for `reason` (a lost worker, say).
    pub fn inconclusive(reason: String) -> ImplRound {
        ImplRound { inconclusive: Some(reason), ..Default::default() }
    }

    /// The check proved every assertion of the implementation under its assignment.
    pub fn valid(&self) -> bool {
        self.refuted.is_empty() && self.errors.is_empty() && self.inconclusive.is_none()
    }

    /// A non-candidate failure: it stops the search (Boogie's abort).
    pub fn stops(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Inconclusive without refuting anything (a timeout): the implementation is not checked
    /// again (Boogie's black list).
    pub fn gave_up(&self) -> bool {
        self.inconclusive.is_some() && self.refuted.is_empty()
    }

    /// It refuted candidates and found no real failure: the next check (under the new
    /// assignment) can start at once.
    pub fn refutes_only(&self) -> bool {
        !self.refuted.is_empty() && self.errors.is_empty()
    }
}

/// Statistics and the final assignment.
#[derive(Clone, Debug, Default)]
pub struct HoudiniStats {
    /// Candidates, in program order.
    pub candidates: Vec<Name>,
    pub assignment: Assignment,
    /// Number of candidates that stayed true.
    pub kept: usize,
    pub rounds: usize,
    /// Number of VC checks run by Houdini (not counting the final verification).
    pub checks: usize,
    /// Wall time of the Houdini phase.
    pub time: std::time::Duration,
    /// Where `{:candidate}` clauses came from (their generated guard and the clause's span).
    pub origins: Vec<(Name, Span)>,
    /// The search stopped at a non-candidate failure (Boogie's abort): the assignment is not
    /// a fixpoint, and the failure is reported.
    pub stopped: bool,
    /// Why a Houdini check first stopped without a verdict (a time limit, say), if one did.
    /// Such a check's refutations count, but those it did not reach are left to later rounds,
    /// so the search's path, and the assignment where a non-candidate failure stops it, can
    /// depend on the machine's speed: the report says so.
    pub limited: Option<String>,
    /// Candidates that started false (the warm start, [`super::warm`]).
    pub warm: usize,
    /// Each candidate's identity across edits, when a warm start was asked for
    /// ([`crate::engine::VerifyOptions::houdini_warm`]); empty otherwise.
    pub identities: BTreeMap<Name, super::CandidateId>,
}

impl HoudiniStats {
    /// Notes that a check of `round` stopped without a verdict, if it did (the first reason is
    /// kept).
    pub fn note_limit(&mut self, round: &ImplRound) {
        if let (None, Some(why)) = (&self.limited, &round.inconclusive) {
            self.limited = Some(why.clone());
        }
    }

    /// The identities of the candidates the final assignment refutes: the next run's warm
    /// start (empty when [`HoudiniStats::identities`] is).
    pub fn refuted_ids(&self) -> super::WarmStart {
        let refuted = |n: &Name| self.assignment.get(n) == Some(&false);
        self.identities.iter().filter(|(n, _)| refuted(n)).map(|(_, id)| id.clone()).collect()
    }

    /// The assignment as Boogie's `/printAssignment` prints it.
    pub fn format_assignment(&self) -> String {
        let mut out = String::from("Assignment computed by Houdini:\n");
        for c in &self.candidates {
            let v = self.assignment.get(c).copied().unwrap_or(false);
            out.push_str(&format!("{} = {}\n", c, if v { "True" } else { "False" }));
        }
        out
    }
}

/// Why an implementation that Houdini left unsettled is inconclusive.
pub const STOPPED_ELSEWHERE: &str =
    "Houdini stopped at an error elsewhere before this implementation's candidates were settled";
