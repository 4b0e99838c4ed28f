//! Vacuity checks: a kernel that no pair (or group) of threads can run is refused, never
//! reported verified.
//!
//! A kernel whose preconditions, the file's axioms and the sizes contradict each other (say
//! `axiom group_size_x == 16` with `--local-size 32`) verifies vacuously: every assertion holds
//! in no state. For each kernel a procedure `K$vacuity` with the kernel's parameters and
//! preconditions and the body `assert false` detects it: if that procedure verifies, the
//! kernel cannot run. The checks are verified apart from the kernels and without Houdini (their
//! `assert false` fails by design, and a failing non-candidate assertion stops Houdini for every
//! implementation of a program). Both the two-thread path and the lock-step path use them.

use crate::predication::{all_names, FreshNames};
use ivl::ast::*;
use ivl::diag::Diagnostic;
use vcgen::engine::{Outcome, ProgramResult};

/// The vacuity checks of some kernels, as a program of their own.
#[derive(Clone, Debug)]
pub struct VacuityChecks {
    /// The declarations of the verified program without bodies, and one check per kernel.
    pub program: Program,
    /// Per check: its procedure, the kernel, and where the kernel is declared.
    pub checks: Vec<(Name, Name, Span)>,
}

/// One kernel to check: its name and span, parameters and preconditions.
pub struct Kernel<'a> {
    pub name: &'a Name,
    pub span: Span,
    pub ins: &'a [TypedIdent],
    pub requires: Vec<Contract>,
}

impl VacuityChecks {
    /// The checks of `kernels`, next to the declarations of `program` (whose names they avoid).
    pub fn new<'a>(program: &Program, kernels: impl IntoIterator<Item = Kernel<'a>>) -> VacuityChecks {
        let mut fresh = FreshNames::new(all_names(program));
        let declarations = Program { decls: vcgen::desugar::declarations(program) };
        let mut out = VacuityChecks { program: declarations, checks: Vec::new() };
        for k in kernels {
            let name = fresh.fresh(&format!("{}$vacuity", k.name));
            out.program.decls.push(assert_false(&name, k.ins, k.requires, k.span));
            out.checks.push((name, k.name.clone(), k.span));
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.checks.is_empty()
    }

    /// Takes the checks' results out of `checked` and reports each kernel whose check verified
    /// in `result`, with the diagnostic `unrunnable(kernel, span)`.
    pub fn judge(
        &self,
        checked: &mut ProgramResult,
        result: &mut ProgramResult,
        unrunnable: impl Fn(&Name, Span) -> Diagnostic,
    ) {
        for (name, kernel, span) in &self.checks {
            let Some(i) = checked.impls.iter().position(|r| r.name == name.as_str()) else { continue };
            if matches!(checked.impls.remove(i).outcome, Outcome::Verified) {
                result.errors.push(unrunnable(kernel, *span));
            }
        }
    }
}

/// `procedure name(ins) requires …; { assert false; }`. A candidate precondition counts as
/// assumed: the check runs without Houdini (a kernel has no callers, so Houdini would keep it).
fn assert_false(name: &Name, ins: &[TypedIdent], requires: Vec<Contract>, span: Span) -> Decl {
    let body = Body {
        locals: vec![],
        stmts: vec![Stmt::new(StmtKind::Assert { attrs: vec![], expr: Expr::bool(false) }, span)],
        span,
    };
    let contracts = requires
        .into_iter()
        .map(|mut c| {
            c.attrs.retain(|a| a.name.name != "candidate");
            c
        })
        .collect();
    Decl {
        kind: DeclKind::Procedure(ProcedureDecl {
            attrs: vec![],
            name: Ident::new(name.clone(), span),
            type_params: vec![],
            ins: ins.to_vec(),
            outs: vec![],
            contracts,
            modifies: vec![],
            body: Some(body),
        }),
        span: Span::DUMMY,
    }
}
