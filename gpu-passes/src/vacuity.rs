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
    /// in `result`, with the diagnostic `unrunnable(kernel, span)`; a kernel whose check was
    /// not decided (a time limit, `--timeout` ending the run) is inconclusive, not verified.
    pub fn judge(
        &self,
        checked: &mut ProgramResult,
        result: &mut ProgramResult,
        unrunnable: impl Fn(&Name, Span) -> Diagnostic,
    ) {
        for (name, kernel, span) in &self.checks {
            let Some(i) = checked.impls.iter().position(|r| r.name == name.as_str()) else { continue };
            match checked.impls.remove(i).outcome {
                Outcome::Verified => result.errors.push(unrunnable(kernel, *span)),
                // Not decided (a time limit): the kernel may be unrunnable, so its variants are
                // not reported verified.
                Outcome::Inconclusive(reason) => {
                    let variant = format!("{kernel}$inter_group");
                    let variants =
                        result.impls.iter_mut().filter(|r| r.name == kernel.as_str() || r.name.starts_with(&variant));
                    for r in variants.filter(|r| matches!(r.outcome, Outcome::Verified)) {
                        r.outcome = Outcome::Inconclusive(format!(
                            "whether any two threads can run the kernel was not decided ({reason}), so it is not reported verified"
                        ));
                    }
                }
                Outcome::Errors(_) => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use vcgen::engine::ImplResult;

    fn result(name: &str, outcome: Outcome) -> ImplResult {
        ImplResult { name: name.into(), span: Span::DUMMY, outcome, time: Default::default() }
    }

    fn judged(check: Outcome) -> (Vec<Outcome>, usize) {
        let checks = VacuityChecks {
            program: Program { decls: vec![] },
            checks: vec![(Name::from("k$vacuity"), Name::from("k"), Span::DUMMY)],
        };
        let mut checked = ProgramResult { impls: vec![result("k$vacuity", check)], ..Default::default() };
        let mut main = ProgramResult {
            impls: vec![
                result("k", Outcome::Verified),
                result("k$inter_group", Outcome::Verified),
                result("other", Outcome::Verified),
            ],
            ..Default::default()
        };
        checks.judge(&mut checked, &mut main, |_, span| Diagnostic::unsupported("unrunnable", span));
        (main.impls.into_iter().map(|r| r.outcome).collect(), main.errors.len())
    }

    #[test]
    fn an_undecided_vacuity_check_keeps_its_kernel_from_being_verified() {
        let (outcomes, errors) = judged(Outcome::Inconclusive("timed out after 5 s (--timeout)".into()));
        assert_eq!(errors, 0);
        assert!(matches!(&outcomes[0], Outcome::Inconclusive(r) if r.contains("timed out after 5 s")), "{outcomes:?}");
        assert!(matches!(&outcomes[1], Outcome::Inconclusive(_)), "{outcomes:?}");
        // Another kernel's verdict is its own.
        assert!(matches!(&outcomes[2], Outcome::Verified), "{outcomes:?}");
        // A runnable kernel (its `assert false` fails) keeps its verdict; an unrunnable one is refused.
        let (outcomes, errors) = judged(Outcome::Errors(vec![]));
        assert!(outcomes.iter().all(|o| matches!(o, Outcome::Verified)) && errors == 0);
        assert_eq!(judged(Outcome::Verified).1, 1);
    }
}
