//! One implementation's solver (a *unit* of work; with several solvers per implementation, one
//! of its shares): passified, encoded and its VC asserted once ([`ImplState::build`]), then
//! checked as often as asked: the final verification without Houdini
//! ([`ImplState::final_check`]) or Houdini's rounds ([`ImplState::houdini_round`]), whose
//! failures become diagnostics in source order ([`ImplState::diagnostics`]). A [`Unit`] is
//! such a solver in a Z3 context of its own (`super::context`), with the program encoded there
//! for it alone.

use super::context::{fresh_context, in_context};
use super::options::VerifyOptions;
use super::outcome::Outcome;
use super::pool::{ContextEntry, Shared};
use crate::houdini::{self, Assignment, ImplRound, Part};
use crate::passify::{passify, Passive};
use crate::report::failure_diagnostic;
use crate::smt::Encoder;
use crate::solver::VcSolver;
use crate::trace::trace_enabled;
use crate::wp::{self, Failure};
use crate::HashSet;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::Diagnostic;
use std::time::{Duration, Instant};
use z3::ast::Bool;

/// One implementation's solver and what reporting needs.
pub(super) struct ImplState {
    pub(super) solver: VcSolver,
    passive: Passive,
    pub(super) build_time: Duration,
}

/// One unit of work in its own Z3 context: the solver, and the candidates' literals there.
pub(super) struct Unit {
    /// Its index (unit `u` is share `u % share` of implementation `u / share`).
    index: usize,
    ctx: z3::Context,
    state: ImplState,
    cands: Vec<(Name, Bool)>,
}

/// Why a unit could not be built.
pub(super) enum BuildError {
    /// The program's declarations could not be encoded (every unit finds the same errors).
    Program(Vec<Diagnostic>),
    /// The implementation could not be passified or encoded.
    Impl(Vec<Diagnostic>),
}

/// A built unit with the notes of its encoding (program and implementation).
pub(super) type Built = (Unit, Vec<Diagnostic>);

impl Unit {
    /// Makes a context, encodes the program in it and builds unit `unit`'s solver there
    /// (`racer`: its solver configuration, [`Shared::racer`]).
    pub(super) fn build(shared: &Shared, unit: usize) -> Result<Built, BuildError> {
        let ctx = fresh_context();
        let imp = &shared.impls[unit / shared.share];
        in_context(&ctx, || {
            let mut enc = Encoder::new(shared.program).map_err(BuildError::Program)?;
            let candidate_set: HashSet<Name> = shared.candidates.iter().cloned().collect();
            let cands: Vec<(Name, Bool)> = shared
                .candidates
                .iter()
                .filter_map(|c| enc.constant(c).and_then(|d| d.as_bool()).map(|b| (c.clone(), b)))
                .collect();
            let racer = shared.racer(unit);
            let state = ImplState::build(&mut enc, imp, shared.globals, &candidate_set, shared.opts, racer)
                .map_err(BuildError::Impl)?;
            // Asynchronous Houdini (several units per implementation, only ever with Houdini)
            // interrupts checks of solvers it still needs.
            if shared.share > 1 {
                state.solver.internalize();
            }
            Ok((cands, state, std::mem::take(&mut enc.notes)))
        })
        .map(|(cands, state, notes)| (Unit { index: unit, ctx, state, cands }, notes))
    }

    /// The candidates mentioned by the unit's implementation.
    pub(super) fn mentions(&self) -> HashSet<Name> {
        self.state.solver.vc.mentioned_candidates.clone()
    }

    /// Runs `f` on the unit's solver and candidate literals in the unit's context, which is
    /// published as worker `worker`'s meanwhile (for interrupts, `Shared::interrupt`).
    pub(super) fn run<R>(&self, shared: &Shared, worker: usize, f: impl FnOnce(&ImplState, &[(Name, Bool)]) -> R) -> R {
        let _published = ContextEntry::publish(shared, worker, self.index, &self.ctx);
        in_context(&self.ctx, || f(&self.state, &self.cands))
    }
}

/// Encodes the program's declarations in a context of their own (for a program without
/// implementations, whose declarations must still be checked); returns the errors or the notes.
pub(super) fn encode_program(program: &Program) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    let ctx = fresh_context();
    in_context(&ctx, || Encoder::new(program).map(|mut enc| std::mem::take(&mut enc.notes)))
}

/// The program's global variables (what passification treats as the state).
pub(super) fn global_vars(program: &Program) -> Vec<TypedIdent> {
    program
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var(v) => Some(v.vars.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn timeout_ms(opts: &VerifyOptions) -> Option<u64> {
    opts.timeout_secs.map(|s| s.saturating_mul(1000))
}

impl ImplState {
    /// Passifies and encodes one implementation and asserts its VC in a new solver.
    pub(super) fn build(
        enc: &mut Encoder,
        imp: &BlockImpl,
        globals: &[TypedIdent],
        candidates: &HashSet<Name>,
        opts: &VerifyOptions,
        racer: u32,
    ) -> Result<ImplState, Vec<Diagnostic>> {
        let start = Instant::now();
        let passive = passify(imp, globals)?;
        let env = wp::impl_env(enc, &passive.imp)?;
        let vc = wp::generate(enc, &passive.imp, &env, candidates)?;
        let solver = VcSolver::new(&enc.background, vc, timeout_ms(opts), racer)
            .counting_in(opts.cancel.as_ref().map(|c| c.counter()))
            .ending_by(opts.deadline);
        if trace_enabled() {
            eprintln!(
                "built {} in {:.3}s ({} asserts)",
                imp.name.name,
                start.elapsed().as_secs_f64(),
                solver.vc.asserts.len()
            );
        }
        Ok(ImplState { solver, passive, build_time: start.elapsed() })
    }

    /// Diagnostics for failures, in source order; `stopped` notes why the search for more ended.
    pub(super) fn diagnostics(&self, failures: &[Failure], stopped: Option<&str>) -> Vec<Diagnostic> {
        let mut diags: Vec<Diagnostic> =
            failures.iter().map(|f| failure_diagnostic(&self.solver.vc, f, &self.passive.synthetic)).collect();
        // In source order, whatever order the solver found them in.
        diags.sort_by_key(|d| (d.primary.span.start, d.kind));
        if let (Some(r), Some(last)) = (stopped, diags.last_mut()) {
            last.notes.push(format!("the search for further errors stopped: {r}"));
        }
        diags
    }

    /// The verification of one implementation without Houdini.
    pub(super) fn final_check(&self, opts: &VerifyOptions) -> (Outcome, Duration) {
        let start = Instant::now();
        let (failures, stopped) = self.solver.enumerate(&[], opts.error_limit);
        if trace_enabled() {
            eprintln!(
                "final check: {:.3}s, {} failures, stopped {stopped:?}",
                start.elapsed().as_secs_f64(),
                failures.len()
            );
        }
        let outcome = if failures.is_empty() {
            match stopped {
                Some(r) => Outcome::Inconclusive(r),
                None => Outcome::Verified,
            }
        } else {
            Outcome::Errors(self.diagnostics(&failures, stopped.as_deref()))
        };
        (outcome, self.build_time + start.elapsed())
    }

    /// One Houdini round ([`houdini::round`]) of `part` of this implementation's VC under the
    /// assignment, reported in source order; with the number of solver calls made.
    pub(super) fn houdini_round(
        &self,
        cands: &[(Name, Bool)],
        a: &Assignment,
        error_limit: usize,
        part: Part,
    ) -> (ImplRound, usize) {
        houdini::round(&self.solver, cands, a, error_limit, part, &|f, r| self.diagnostics(f, r))
    }
}
