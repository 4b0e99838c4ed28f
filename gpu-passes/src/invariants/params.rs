//! Parameters a procedure's precondition fixes (`requires width == 64`, the front end's
//! `__requires(width == 64)`, CUDA's simpleCubemapTexture): candidates are written with the
//! literal instead of the parameter, as they are with the sizes fixed on the command line
//! ([`super::facts::ProgramFacts::size_literals`]). A candidate `off mod (width * width) == …`
//! is then `off mod 4096 == …`, which Z3 decides by bit-blasting a constant divisor instead of
//! a non-linear product of unknowns (GPUVerify writes its candidates over the parameter and
//! leaves the product to the solver; kivl's Houdini timed out on it).
//!
//! Only in-parameters of a procedure with a body count (Boogie's in-parameters cannot be
//! assigned, so the equation holds everywhere in the body), and only an equation of a
//! non-free `requires` or a conjunct of one, which every caller must establish. The
//! substitution only changes which candidates are proposed; Houdini checks each of them.

use ivl::ast::*;
use std::collections::HashMap;

/// `p ↦ N` for each in-parameter `p` of procedure `proc` that a `requires p == N` fixes.
pub fn fixed_params(program: &Program, proc: &Name) -> HashMap<Name, Expr> {
    let mut out = HashMap::new();
    for d in &program.decls {
        let DeclKind::Procedure(p) = &d.kind else { continue };
        if &p.name.name != proc || p.body.is_none() {
            continue;
        }
        let params: Vec<&Name> = p.ins.iter().map(|t| &t.name.name).collect();
        for c in p.contracts.iter().filter(|c| c.kind == SpecKind::Requires && !c.free) {
            equations(&c.expr, &mut |x, v| {
                if params.contains(&x) && !out.contains_key(x) {
                    out.insert(x.clone(), v.clone());
                }
            });
        }
    }
    out
}

/// The `x == literal` (or `literal == x`) conjuncts of `e`.
fn equations(e: &Expr, f: &mut dyn FnMut(&Name, &Expr)) {
    let is_lit = |e: &Expr| matches!(e.kind, ExprKind::BvLit { .. } | ExprKind::IntLit(_));
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            equations(a, f);
            equations(b, f)
        }
        ExprKind::Binary(BinOp::Eq, a, b) => match (&a.kind, &b.kind) {
            (ExprKind::Var(x), _) if is_lit(b) => f(&x.name, b),
            (_, ExprKind::Var(x)) if is_lit(a) => f(&x.name, a),
            _ => {}
        },
        _ => {}
    }
}
