//! Houdini's warm start in the database (issue 20): a unit verified with Houdini starts from the
//! candidates its previous run refuted, where nothing they depend on changed
//! (`vcgen::houdini::warm`: candidates are known by their clause and a hash of their
//! procedure, its callers and its callees' contracts, so those of an edited procedure start
//! true again).
//!
//! The previous runs' refutations are kept per unit in a [`WarmStore`] that the job holds. It is
//! state outside salsa's tracking: a unit's verdict is computed from its slice as before, only
//! faster, never different in verdict:
//! - a warm run that verifies is a proof (Houdini checked every implementation under the final
//!   assignment; starting from fewer candidates only removes assumptions that are also
//!   assertions);
//! - a warm run that started some candidates false and does not verify is run again cold, so
//!   that an error or an inconclusive result is the one a cold run reports (a candidate started
//!   false may have survived this time: that would cost precision).
//!
//! A verified warm run may keep fewer candidates than a cold one (the `houdini: N candidates,
//! K kept` line). Not used where the kept candidates are the result: `--termination` (a loop is
//! proven by the ranking candidates kept), `--print-assignment`, `--infer-info`.

use super::slice::ImplKey;
use super::Shared;
use gpu_passes::driver::{self, Verdicts};
use ivl::ast::Program;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use vcgen::engine::Outcome;
use vcgen::houdini::WarmStart;

/// Per unit (`None`: the whole program), the identities of the candidates its last run refuted.
pub type WarmStore = Shared<Mutex<HashMap<Option<ImplKey>, Arc<WarmStart>>>>;

/// An empty store.
pub fn store() -> WarmStore {
    Shared(Arc::new(Mutex::new(HashMap::new())))
}

/// Whether units verified with these options use the warm start (see the module doc).
pub fn applies(cfg: &crate::pipeline::VerifyConfig) -> bool {
    let d = &cfg.driver;
    let houdini = d.engine.houdini || d.infer || d.lockstep.is_some();
    houdini && !d.termination && !d.infer_info && !cfg.print_assignment
}

/// The driver on `program` from the unit's previous refutations, cold again when that does not
/// verify; records this run's refutations for the next.
pub fn verify(program: &Program, cfg: &driver::Config, warm: &WarmStore, key: &Option<ImplKey>) -> Verdicts {
    let start = warm.0.lock().unwrap_or_else(|e| e.into_inner()).get(key).cloned().unwrap_or_default();
    let run = |start: Arc<WarmStart>| {
        let mut cfg = cfg.clone();
        cfg.engine.houdini_warm = Some(start);
        driver::verify(program, &cfg)
    };
    let mut verdicts = run(start);
    if started_warm(&verdicts) && !verified(&verdicts) {
        verdicts = run(Arc::default());
    }
    let refuted = verdicts.result.houdini.as_ref().map(|h| h.refuted_ids()).unwrap_or_default();
    warm.0.lock().unwrap_or_else(|e| e.into_inner()).insert(key.clone(), Arc::new(refuted));
    verdicts
}

/// Whether Houdini started with some candidates false.
pub fn started_warm(v: &Verdicts) -> bool {
    v.result.houdini.as_ref().is_some_and(|h| h.warm > 0)
}

/// Every implementation verified, no program-level error.
fn verified(v: &Verdicts) -> bool {
    let r = &v.result;
    r.errors.is_empty() && r.impls.iter().all(|i| matches!(i.outcome, Outcome::Verified))
}
