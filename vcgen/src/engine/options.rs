//! What a verification run is asked to do: Boogie's options that the engine honours
//! (`/errorLimit`, `/contractInfer`, `/printAssignment`, a time limit per check) and kivl's own
//! (worker threads, `--split-vc`, `--portfolio`).

/// Options of [`super::verify_program`] and [`super::verify_block_impls`].
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Worker threads (0: one per available core).
    pub jobs: usize,
    /// Time limit of each search of an implementation (its verification with the search for
    /// further errors, or one Houdini round): `--search-timeout`, Boogie's `/timeLimit`.
    pub timeout_secs: Option<u64>,
    /// The wall-clock end of the whole run (`--timeout`): no search goes past it, whatever
    /// `timeout_secs` leaves ([`ivl::deadline`]).
    pub deadline: Option<ivl::deadline::Deadline>,
    /// Infer candidate annotations first (Boogie's `/contractInfer`).
    pub houdini: bool,
    /// Fill [`super::ProgramResult::assignment_text`] (Boogie's `/printAssignment`).
    pub print_assignment: bool,
    /// Failing assertions reported per implementation (Boogie's `/errorLimit`, default 5).
    pub error_limit: usize,
    /// Houdini with fewer implementations than `jobs`: check each implementation on several
    /// solvers, each owning a share of its assertions (the others assumed). Off by default:
    /// on the GPUVerify corpus's slow files it is as often slower as faster (a share can take
    /// Z3 longer than the whole VC); `scripts/houdini-parallel-bench.py` measures it.
    pub split_vc: bool,
    /// Houdini with fewer implementations than `jobs`: check each implementation on several
    /// solvers at once, each with the whole VC and its own configuration (the first has the
    /// usual one, [`crate::solver`]'s racers), without rounds: each refutation goes to the
    /// others as soon as it is found, and the first solver to prove the VC under the current
    /// assignment ends the race. Z3's time on one query varies several-fold with its
    /// configuration; a race gets the fastest. The refutations found may differ from one-thread
    /// runs, the fixpoint does not (up to solver incompleteness). Ignored with `split_vc`.
    pub portfolio: bool,
    /// Inline calls of procedures without `{:inline}` this deep (Boogie's `/inlineDepth`,
    /// `crate::desugar::Context::with_inline_depth`).
    pub inline_depth: Option<u64>,
    /// Unwind every loop this many times instead of cutting it (`--loop-unwind N`,
    /// `crate::desugar::DesugarOptions::loop_unwind`): bounded checking, no proof.
    pub loop_unwind: Option<u64>,
    /// Houdini's warm start ([`crate::houdini::WarmStart`]): the candidates with these
    /// identities start false. `Some` also fills [`crate::houdini::HoudiniStats::identities`]
    /// (an empty set: a cold start that tells the identities for the next run).
    pub houdini_warm: Option<std::sync::Arc<crate::houdini::WarmStart>>,
    /// `--stop-at-first-error`: once an implementation has an error, the implementations after
    /// it in program order are not verified (not started, or interrupted) and get
    /// [`super::Outcome::skipped`], whatever `jobs` is (those before it are verified as usual).
    pub stop_at_first_error: bool,
    /// A stop from outside ([`super::Cancel`]): once cancelled, every check returns at once
    /// and the run's result means nothing.
    pub cancel: Option<std::sync::Arc<super::Cancel>>,
    /// Give bit-vector values that no bit-vector operation reaches an uninterpreted sort
    /// ([`crate::abstract_values`]); off: every value keeps its bits (`--bit-precise-values`).
    pub abstract_values: bool,
    /// Told what the engine is doing (a progress line, `--time`); see [`crate::progress`].
    pub observer: crate::progress::Observer,
}

impl VerifyOptions {
    /// The worker threads `jobs` asks for (0: one per available core), at least one.
    pub fn threads(&self) -> usize {
        let jobs = if self.jobs == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { self.jobs };
        jobs.max(1)
    }
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            jobs: 0,
            timeout_secs: None,
            deadline: None,
            houdini: false,
            print_assignment: false,
            error_limit: 5,
            split_vc: false,
            portfolio: false,
            inline_depth: None,
            loop_unwind: None,
            houdini_warm: None,
            stop_at_first_error: false,
            cancel: None,
            abstract_values: true,
            observer: Default::default(),
        }
    }
}
