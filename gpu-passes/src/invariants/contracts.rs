//! Rule family "procedure contracts" (seed 001 §4.3 mentions contract candidates without
//! detail; these are the simplest useful ones): kivl verifies calls modularly, so a callee's
//! results are known to the caller only through its postconditions.
//!
//! Candidates, for a procedure with a body that a kernel calls: `ensures r == e` when the body
//! sets out-parameter `r` exactly once, by a top-level `r := e` over the in-parameters and
//! constants; and, when the procedure contains a barrier, `requires __uniform(p)` for each
//! in-parameter and `requires __uniform(__enabled())` (a barrier must be reached by all
//! threads with the same arguments).

use super::facts::ProgramFacts;
use ivl::ast::*;
use ivl::check::GlobalKind;
use ivl::visit::free_vars;

pub const OUTPUT: &str = "callee-output";
pub const UNIFORM_PARAM: &str = "callee-uniform-param";

/// A contract candidate: the procedure, whether it is a `requires`, the rule and the clause.
pub struct ContractProposal {
    pub proc: Name,
    pub span: Span,
    pub requires: bool,
    pub rule: &'static str,
    pub expr: Expr,
}

pub fn generate(facts: &ProgramFacts) -> Vec<ContractProposal> {
    let mut out = Vec::new();
    for owner in facts.owners.iter().filter(|o| !o.kernel) {
        let d = &facts.program.decls[owner.decl];
        let (ins, outs, body, span) = match &d.kind {
            DeclKind::Procedure(p) => match &p.body {
                Some(b) => (&p.ins, &p.outs, b, p.name.span),
                None => continue,
            },
            DeclKind::Implementation(i) => (&i.ins, &i.outs, &i.body, i.name.span),
            _ => continue,
        };
        let call = |f: &str, args: Vec<Expr>| Expr::new(ExprKind::Call(Ident::new(f, Span::DUMMY), args), Span::DUMMY);
        if facts.barrier_procs.contains(&owner.name) {
            // Every parameter and the enabledness are uniform at a barrier procedure's entry.
            let uniform = ins
                .iter()
                .map(|p| Expr::var(p.name.name.clone(), Span::DUMMY))
                .chain(std::iter::once(call("__enabled", vec![])));
            for x in uniform {
                out.push(ContractProposal {
                    proc: owner.name.clone(),
                    span,
                    requires: true,
                    rule: UNIFORM_PARAM,
                    expr: call("__uniform", vec![x]),
                });
            }
        }
        let in_names: Vec<&Name> = ins.iter().map(|v| &v.name.name).collect();
        for r in outs {
            let mut defs = Vec::new();
            let mut nested = 0;
            ivl::modifies::walk_stmts(&body.stmts, &mut |s| {
                if ivl::visit::modified_vars(s).contains(&r.name.name) && !matches!(s.kind, StmtKind::Assign { .. }) {
                    nested += 1;
                }
            });
            for s in &body.stmts {
                if let StmtKind::Assign { lhss, rhss } = &s.kind {
                    for (l, e) in lhss.iter().zip(rhss) {
                        if l.var.name == r.name.name && l.indices.is_empty() {
                            defs.push(e.clone());
                        }
                    }
                }
            }
            let total = {
                let mut n = 0;
                ivl::modifies::walk_stmts(&body.stmts, &mut |s| {
                    if let StmtKind::Assign { lhss, .. } = &s.kind {
                        n += lhss.iter().filter(|l| l.var.name == r.name.name).count();
                    }
                });
                n
            };
            let [e] = defs.as_slice() else { continue };
            if total != 1 || nested > 0 {
                continue;
            }
            let closed = free_vars(e).iter().all(|v| {
                in_names.contains(&v) || matches!(facts.env.global(v).map(|g| &g.kind), Some(GlobalKind::Const { .. }))
            });
            if closed {
                let eq = Expr::eq(Expr::var(r.name.name.clone(), Span::DUMMY), e.clone());
                out.push(ContractProposal { proc: owner.name.clone(), span, requires: false, rule: OUTPUT, expr: eq });
            }
        }
    }
    out
}
