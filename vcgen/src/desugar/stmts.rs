//! Statement rewriting that several passes share: renaming the variables a statement writes
//! ([`rename_targets`]) and assuming the `where` clauses of variables just havocked
//! ([`where_assumes`]).

use ivl::ast::*;
use std::collections::HashMap;

/// Renames the variables a simple statement writes (assignment targets, `havoc`, call outputs,
/// atomics, vector statements); [`ivl::visit::rename_vars`] renames only the uses.
pub fn rename_targets(s: &mut Stmt, renaming: &HashMap<Name, Name>) {
    let r = |x: &mut Ident| {
        if let Some(n) = renaming.get(&x.name) {
            x.name = n.clone();
        }
    };
    match &mut s.kind {
        StmtKind::Assign { lhss, .. } => lhss.iter_mut().for_each(|l| r(&mut l.var)),
        StmtKind::Havoc(xs) => xs.iter_mut().for_each(r),
        StmtKind::Call { outs, .. } => outs.iter_mut().for_each(r),
        StmtKind::Atomic(a) => {
            r(&mut a.target.var);
            a.out.iter_mut().for_each(r);
        }
        StmtKind::Vector(v) => match v {
            VectorStmt::Assign { lhss, .. } => lhss.iter_mut().for_each(|l| r(&mut l.var)),
            VectorStmt::Havoc(xs) => xs.iter_mut().for_each(r),
            VectorStmt::Psi { lhs, .. } => r(&mut lhs.var),
            VectorStmt::Assume(_) | VectorStmt::Assert(_) => {}
        },
        _ => {}
    }
}

/// The assume statements for the `where` clauses of variables that were just havocked (or are
/// at the entry): `where_of` gives the clause of a name in scope.
pub fn where_assumes(names: &[Name], where_of: &dyn Fn(&Name) -> Option<Expr>, span: Span) -> Vec<Stmt> {
    names
        .iter()
        .filter_map(where_of)
        .map(|e| Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: e }, span))
        .collect()
}
