//! The two-thread program's results in the kernel's terms (the driver, `crate::driver`, builds
//! the program and runs the VC engine on it).
//!
//! Every check of the two-thread program carries its docs/kbpl.md §8 kind (`{:check "race"}`,
//! `"divergence"`, `"barrier-invariant"`, `"precondition"` …), its source location and, for
//! races, the location of the other access (`{:related_span}`) and a message naming the race
//! kind, the array and the threads; the engine turns a failing check into that diagnostic.
//! This module adds what only the reduction knows:
//!
//! - **vacuity**: a kernel whose preconditions, axioms and sizes leave no pair of threads of one
//!   group would verify vacuously; such a kernel is refused, never reported verified
//!   ([`crate::vacuity`]);
//! - the inter-group variant is reported under the kernel's name with a suffix;
//! - counterexamples: every assertion asks the solver for the threads' ids, the sizes, the
//!   parameters and the race index, and errors are told in those terms
//!   ([`super::counterexample`]).

use super::{Built, KernelOptions};
use crate::vacuity::{Kernel, VacuityChecks};
use ivl::diag::{Diagnostic, ErrorKind};
use vcgen::engine::ProgramResult;

/// The suffix of the inter-group variant's results.
pub const INTER_GROUP_SUFFIX: &str = " (threads in different groups)";

/// The vacuity checks of the intra-group variants (the inter-group variant has the same
/// preconditions and more threads to choose from).
pub fn vacuity_checks(built: &Built) -> VacuityChecks {
    let kernels = built.variants.iter().filter(|v| !v.inter).map(|v| Kernel {
        name: &v.name,
        span: v.span,
        ins: &v.ins,
        requires: v.requires.clone(),
    });
    VacuityChecks::new(&built.program, kernels)
}

/// The engine's results on the two-thread program told in the kernel's terms: kernels that no
/// two threads can run (from the vacuity checks' results `vacuity_result`), counterexamples,
/// and the inter-group variant under the kernel's name.
pub fn explain(
    result: &mut ProgramResult,
    built: &Built,
    vacuity: &VacuityChecks,
    mut vacuity_result: ProgramResult,
    opts: &KernelOptions,
) {
    let sizes = given_sizes(opts);
    vacuity.judge(&mut vacuity_result, result, |kernel, span| {
        Diagnostic::new(
            ErrorKind::Unsupported,
            format!(
                "no two threads of one group can run kernel `{kernel}`: its preconditions and the file's axioms \
                 contradict each other or the sizes{sizes}"
            ),
            span,
        )
        .with_label("this kernel")
        .with_note("a kernel that cannot run is not reported verified; check fixed size axioms and `requires`")
    });
    super::counterexample::explain_all(result);
    for v in built.variants.iter().filter(|v| v.inter) {
        if let Some(r) = result.impls.iter_mut().find(|r| r.name == v.name.as_str()) {
            r.name = format!("{}{INTER_GROUP_SUFFIX}", v.kernel);
        }
    }
}

/// The sizes as they were given on the command line (` (--local-size 8,8)`), or nothing.
fn given_sizes(opts: &KernelOptions) -> String {
    let given: Vec<String> = [("--local-size", &opts.local_size), ("--num-groups", &opts.num_groups)]
        .into_iter()
        .filter_map(|(flag, dims)| {
            let dims = dims.as_ref()?.iter().map(u64::to_string).collect::<Vec<_>>();
            Some(format!("{flag} {}", dims.join(",")))
        })
        .collect();
    if given.is_empty() {
        String::new()
    } else {
        format!(" ({})", given.join(" "))
    }
}
