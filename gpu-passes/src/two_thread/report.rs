//! `kivl verify` on a kernel program: build the two-thread program, verify it with the VC
//! engine, and report in the kernel's terms.
//!
//! Every check of the two-thread program carries its docs/kbpl.md §8 kind (`{:check "race"}`,
//! `"divergence"`, `"barrier-invariant"`, `"precondition"` …), its source location and, for
//! races, the location of the other access (`{:related_span}`) and a message naming the race
//! kind, the array and the threads; the engine turns a failing check into that diagnostic.
//! This module adds what only the reduction knows:
//!
//! - **vacuity**: a kernel whose preconditions, axioms and sizes leave no pair of threads of one
//!   group (say `axiom group_size_x == 16` with `--local-size 32`) would verify vacuously. A
//!   procedure `K$vacuity` with the same preconditions and body `assert false` detects this;
//!   such a kernel is refused, never reported verified;
//! - the inter-group variant is reported under the kernel's name with a suffix;
//! - counterexamples: every assertion asks the solver for the threads' ids, the sizes, the
//!   parameters and the race index, and errors are told in those terms
//!   ([`super::counterexample`]).

use super::{build, KernelOptions};
use ivl::ast::*;
use ivl::diag::{Diagnostic, ErrorKind};
use vcgen::engine::{verify_program, Outcome, ProgramResult, VerifyOptions};

/// The suffix of the inter-group variant's results.
pub const INTER_GROUP_SUFFIX: &str = " (threads in different groups)";

/// `kivl verify` on a checked kernel program: races, barrier divergence, barrier invariants,
/// assertions and contracts, for every pair of threads (see [`super`]). Errors point at the
/// source.
pub fn verify_kernel(p: &Program, opts: &KernelOptions, vopts: &VerifyOptions) -> ProgramResult {
    // The user's `{:candidate}`s count only with --houdini (docs/kbpl.md §5.4).
    let source = if vopts.houdini { p.clone() } else { vcgen::desugar::drop_candidates(p) };
    let built = match build(&source, opts) {
        Ok(b) => b,
        Err(errors) => return ProgramResult { errors, ..Default::default() },
    };
    let mut program = built.program;
    super::counterexample::add_captures(&mut program, &built.variants, &source);
    let mut fresh = crate::predication::FreshNames(crate::predication::all_names(&program));
    // The vacuity checks run on their own, without Houdini: their `assert false` fails, and a
    // non-candidate failure stops Houdini for every implementation of a program.
    let mut vacuity_program = vacuity_base(&program);
    let mut vacuity = Vec::new();
    for v in built.variants.iter().filter(|v| !v.inter) {
        let name = fresh.fresh(&format!("{}$vacuity", v.name));
        let body = Body {
            locals: vec![],
            stmts: vec![Stmt::new(StmtKind::Assert { attrs: vec![], expr: Expr::bool(false) }, v.span)],
            span: v.span,
        };
        vacuity_program.decls.push(Decl {
            kind: DeclKind::Procedure(ProcedureDecl {
                attrs: vec![],
                name: Ident::new(name.clone(), v.span),
                type_params: vec![],
                ins: v.ins.clone(),
                outs: vec![],
                // Checked without Houdini: a candidate precondition counts as assumed (a
                // kernel has no callers, so Houdini would keep it).
                contracts: v
                    .requires
                    .iter()
                    .cloned()
                    .map(|mut c| {
                        c.attrs.retain(|a| a.name.name != "candidate");
                        c
                    })
                    .collect(),
                modifies: vec![],
                body: Some(body),
            }),
            span: Span::DUMMY,
        });
        vacuity.push((name, v.kernel.clone(), v.span));
    }
    let mut result = verify_program(&program, vopts);
    if !vacuity.is_empty() && result.errors.is_empty() {
        let vopts = VerifyOptions { houdini: false, ..vopts.clone() };
        result.impls.extend(verify_program(&vacuity_program, &vopts).impls);
    }
    for (name, kernel, span) in vacuity {
        let Some(i) = result.impls.iter().position(|r| r.name == name.as_str()) else { continue };
        let r = result.impls.remove(i);
        if matches!(r.outcome, Outcome::Verified) {
            // The sizes as they were given on the command line (`--local-size 8,8`).
            let given: Vec<String> = [("--local-size", &opts.local_size), ("--num-groups", &opts.num_groups)]
                .into_iter()
                .filter_map(|(flag, dims)| {
                    let dims = dims.as_ref()?.iter().map(u64::to_string).collect::<Vec<_>>();
                    Some(format!("{flag} {}", dims.join(",")))
                })
                .collect();
            let sizes = if given.is_empty() { String::new() } else { format!(" ({})", given.join(" ")) };
            result.errors.push(
                Diagnostic::new(
                    ErrorKind::Unsupported,
                    format!(
                        "no two threads of one group can run kernel `{kernel}`: its preconditions and the \
                         file's axioms contradict each other or the sizes{sizes}"
                    ),
                    span,
                )
                .with_label("this kernel")
                .with_note("a kernel that cannot run is not reported verified; check fixed size axioms and `requires`"),
            );
        }
    }
    for r in &mut result.impls {
        if let Outcome::Errors(ds) = &mut r.outcome {
            ds.iter_mut().for_each(super::counterexample::explain);
        }
    }
    for v in built.variants.iter().filter(|v| v.inter) {
        if let Some(r) = result.impls.iter_mut().find(|r| r.name == v.name.as_str()) {
            r.name = format!("{}{INTER_GROUP_SUFFIX}", v.kernel);
        }
    }
    result
}

/// The declarations of `program` without procedure bodies: what a vacuity check (`assert
/// false` under a kernel's preconditions) needs.
fn vacuity_base(program: &Program) -> Program {
    let mut p = program.clone();
    p.decls.retain(|d| !matches!(d.kind, DeclKind::Implementation(_)));
    for d in &mut p.decls {
        if let DeclKind::Procedure(pr) = &mut d.kind {
            pr.body = None;
        }
    }
    p
}
