//! Collectives: calls that every thread of a work-group must reach together, some of which give
//! each thread a value computed from the arguments of all of them (issue 38).
//!
//! - OpenCL C 2.0's work-group functions (OpenCL C 2.0 §6.13.8 `work_group_barrier`, §6.13.15
//!   `work_group_reduce_*`, `work_group_scan_*`, `work_group_broadcast`, `work_group_any`,
//!   `work_group_all`);
//! - CUDA's block-wide `__syncthreads_or`, `__syncthreads_and` and `__syncthreads_count` (CUDA C++
//!   Programming Guide, "Synchronization Functions").
//!
//! A collective reached by only some threads of a group is barrier divergence, exactly as for a
//! barrier (seed 001 §4.2, Table 4.2), so each one is translated as a KBPL `barrier` followed by
//! its result:
//!
//! - `work_group_barrier(flags[, scope])` is OpenCL 1.2's `barrier(flags)` (`builtins.rs`);
//! - the work-group functions fence no memory (OpenCL 2.0 gives them no memory-ordering
//!   semantics): `barrier {:nofence}`, so accesses on the two sides of one may still race;
//! - `__syncthreads_*` are `__syncthreads` (both memories fenced);
//! - the result is an arbitrary value, chosen anew at each call, which is the same for the
//!   threads of one group (`__other`) where the real result is (reductions, broadcasts, `any`,
//!   `all`, the counts), and constrained by the thread's own argument where that fixes something:
//!   a non-zero argument gives a non-zero `any`/`_or`/`_count`, a zero one a zero `all`/`_and`,
//!   and `work_group_broadcast(a, id…)` gives its `a` to the thread with local id `id…`. A scan's
//!   result differs between threads: arbitrary for each. Every value the real collective can
//!   return is among these, so a verified kernel is safe whatever the values were.
//!
//! Collectives of smaller scopes (OpenCL's `sub_group_*`, CUDA's warp-level `__syncwarp`,
//! `__ballot_sync`, `__any_sync`, `__all_sync`, `__match_*_sync`, `__reduce_*_sync`) and any
//! other `work_group_*` function are a located `unsupported` error naming the function: no
//! collective may pass as a call without effect, since one that only some threads reach is a
//! bug kivl would then miss.

use super::frame::Frame;
use super::values::{scalar_ty, Ex, Ty, Val};
use super::Tr;
use crate::builtins::{self, DIMS};
use crate::Loc;
use llvm_ir::instruction as inst;

/// What a collective's result says, for the thread that receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Result {
    /// The same value for every thread of the group (a reduction).
    Uniform,
    /// Uniform; non-zero where this thread's argument is non-zero (`work_group_any`,
    /// `__syncthreads_or`, `__syncthreads_count`).
    Any,
    /// Uniform; zero where this thread's argument is zero (`work_group_all`,
    /// `__syncthreads_and`).
    All,
    /// Uniform; the first argument of the thread whose local id the other arguments name.
    Broadcast,
    /// Each thread's own value (a scan).
    PerThread,
}

/// A collective of a whole work-group that gives a value: a barrier (fencing both memories, or
/// none), then its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Collective {
    fenced: bool,
    result: Result,
}

/// The collective a function (by its source name) is, if kivl models it.
pub(crate) fn classify(plain: &str) -> Option<Collective> {
    let opencl = |result| Some(Collective { fenced: false, result });
    let cuda = |result| Some(Collective { fenced: true, result });
    match plain {
        "work_group_reduce_add" | "work_group_reduce_min" | "work_group_reduce_max" => opencl(Result::Uniform),
        "work_group_any" => opencl(Result::Any),
        "work_group_all" => opencl(Result::All),
        "work_group_broadcast" => opencl(Result::Broadcast),
        "__syncthreads_or" | "__syncthreads_count" => cuda(Result::Any),
        "__syncthreads_and" => cuda(Result::All),
        p if ["add", "min", "max"].iter().any(|op| {
            p.strip_prefix("work_group_scan_")
                .and_then(|r| r.strip_prefix("inclusive_").or_else(|| r.strip_prefix("exclusive_")))
                == Some(op)
        }) =>
        {
            opencl(Result::PerThread)
        }
        _ => None,
    }
}

/// Whether a function is a collective, modelled or not: its value is the variable the call
/// was given, never recomputed from its arguments (it is no function of them).
pub(crate) fn is_collective(plain: &str) -> bool {
    classify(plain).is_some() || unmodelled(plain)
}

/// Whether a function that neither [`classify`] nor `builtins::classify` (the barriers) knows
/// is a collective or synchronisation of some scope (by its name): calling it is a located
/// `unsupported` error, never a call without effect.
pub(crate) fn unmodelled(plain: &str) -> bool {
    const PREFIXES: [&str; 7] = [
        "work_group_",
        "sub_group_",
        "__syncwarp",
        "__syncthreads_",
        "__ballot",
        "__match_any_sync",
        "__match_all_sync",
    ];
    const SYNC: [&str; 3] = ["__any_sync", "__all_sync", TILE_COLLECTIVE];
    classify(plain).is_none()
        && builtins::classify(plain).is_none()
        && (PREFIXES.iter().any(|p| plain.starts_with(p))
            || SYNC.contains(&plain)
            || (plain.starts_with("__reduce_") && plain.ends_with("_sync")))
}

/// What kivl's `cooperative_groups` header calls in every collective of a
/// `thread_block_tile` or `coalesced_group` (`headers/cuda.h`).
const TILE_COLLECTIVE: &str = "__kivl_tile_collective";

/// The group of the current thread is the other thread's: `__other` of each group id.
const SAME_GROUP: &str = "(group_id_x == __other(group_id_x) && group_id_y == __other(group_id_y) \
                          && group_id_z == __other(group_id_z))";

/// `e` is not zero (for a boolean, `e` itself); None for a float (no relation is stated).
fn nonzero(e: &Ex) -> Option<String> {
    match e.ty {
        Ty::Bool => Some(e.text.clone()),
        Ty::Bv(w) => Some(format!("{} != 0bv{w}", e.text)),
        Ty::Float(_) => None,
    }
}

impl<'m> Tr<'m> {
    /// Translates a call of a collective (or reports one kivl does not model); false when the
    /// callee is no collective.
    pub(super) fn collective_call(
        &mut self,
        f: &mut Frame<'m>,
        c: &'m inst::Call,
        name: &str,
        loc: Option<Loc>,
    ) -> bool {
        let plain = builtins::demangle(name);
        let Some(Collective { fenced, result }) = classify(plain) else {
            if unmodelled(plain) {
                let warp = "every thread of its warp or sub-group must reach it, and kivl does not model warps yet";
                let msg = if plain == TILE_COLLECTIVE {
                    format!(
                        "a collective of a cooperative-groups tile or coalesced group (`sync`, `shfl*`, `any`, `all`, \
                         `ballot`, `match_any`, `cg::reduce`) is not supported yet: {warp}"
                    )
                } else if plain.starts_with("work_group_") {
                    format!("the work-group function `{plain}` is not supported yet")
                } else {
                    format!("the collective `{plain}` is not supported yet: {warp}")
                };
                self.err(loc, msg);
                return true;
            }
            return false;
        };
        let args: Vec<Option<Ex>> = c
            .arguments
            .iter()
            .map(|(a, _)| {
                let v = self.operand(f, a, loc);
                self.scalar(v, loc)
            })
            .collect();
        self.barrier(fenced, fenced, loc);
        let Some(d) = &c.dest else { return true };
        let Some(t) = scalar_ty(&self.module.type_of(c)) else {
            self.err(loc, format!("the collective `{plain}` on a value that is not a scalar"));
            return true;
        };
        let Val::Scalar(v) = self.havoc_scalar(f, d, t, loc) else { return true };
        for fact in self.collective_facts(&v, result, &args) {
            self.body.emit(format!("assume {fact};"), loc);
        }
        f.vals.insert(d.clone(), Val::Scalar(v));
        true
    }

    /// What is known of a collective's result `v` given this thread's arguments.
    fn collective_facts(&mut self, v: &Ex, result: Result, args: &[Option<Ex>]) -> Vec<String> {
        let mut facts = Vec::new();
        if result != Result::PerThread {
            facts.push(format!("{SAME_GROUP} ==> {} == __other({})", v.text, v.text));
        }
        let first = args.first().cloned().flatten();
        match (result, first) {
            (Result::Any, Some(a)) => {
                if let (Some(a), Some(r)) = (nonzero(&a), nonzero(v)) {
                    facts.push(format!("({a}) ==> ({r})"));
                }
            }
            (Result::All, Some(a)) => {
                if let (Some(a), Some(r)) = (nonzero(&a), nonzero(v)) {
                    facts.push(format!("!({a}) ==> !({r})"));
                }
            }
            (Result::Broadcast, Some(a)) if a.ty == v.ty => {
                // The ids of the named thread, one per dimension given; the others are 0.
                let ids = &args[1..];
                if (1..=3).contains(&ids.len()) && ids.iter().all(|i| i.as_ref().is_some_and(|i| i.ty == Ty::Bv(32))) {
                    let at: Vec<String> = DIMS
                        .iter()
                        .enumerate()
                        .map(|(d, x)| match ids.get(d) {
                            Some(Some(i)) => format!("local_id_{x} == {}", i.text),
                            _ => format!("local_id_{x} == 0bv32"),
                        })
                        .collect();
                    facts.push(format!("({}) ==> {} == {}", at.join(" && "), v.text, a.text));
                }
            }
            _ => {}
        }
        facts
    }
}

#[cfg(test)]
mod tests {
    use super::{classify, unmodelled, Collective, Result};
    use crate::builtins::{self, Builtin};

    #[test]
    fn names() {
        assert_eq!(classify("work_group_barrier"), None);
        assert_eq!(builtins::classify("_Z18work_group_barrierj"), Some(Builtin::Barrier));
        assert!(!unmodelled("work_group_barrier"));
        assert_eq!(
            classify("work_group_scan_exclusive_add"),
            Some(Collective { fenced: false, result: Result::PerThread })
        );
        assert_eq!(classify("work_group_scan_inclusive_mul"), None);
        assert_eq!(classify("__syncthreads_and"), Some(Collective { fenced: true, result: Result::All }));
        assert!(unmodelled("sub_group_reduce_add"));
        assert!(unmodelled("work_group_scan_inclusive_mul"));
        assert!(unmodelled("__syncwarp"));
        assert!(unmodelled("__reduce_add_sync"));
        assert!(unmodelled("__any_sync"));
        assert!(!unmodelled("__syncthreads_or"));
        assert!(!unmodelled("get_local_id"));
        assert!(!unmodelled("__reduce_helper"));
    }
}
