//! Boogie's selective checking: in a procedure or implementation marked
//! `{:selective_checking}`, only the assertions that come after an
//! `assume {:start_checking_here} ...;` are checked; the others are assumed (Boogie 2.4.1,
//! test2/SelectiveChecking.bpl: 1 verified, 4 errors).
//!
//! "After" is reachability in the desugared, acyclic control-flow graph: an assertion is
//! checked when it follows such an assume in its block, or lies in a block reachable from one
//! that has such an assume. Where an assertion is reachable both from a start point and from
//! elsewhere it is checked on every path (foo_fail2 of the test), so kivl never checks less
//! than Boogie does. Without the attribute on the procedure, `{:start_checking_here}` means
//! nothing and every assertion is checked.

use ivl::ast::*;
use ivl::blocks::BlockImpl;

const ATTR: &str = "selective_checking";
const START: &str = "start_checking_here";

/// Applies selective checking to `imp` when it or `proc` carries the attribute.
pub fn apply(proc: &ProcedureDecl, imp: &mut BlockImpl) {
    if !(has_attr(&proc.attrs, ATTR) || has_attr(&imp.attrs, ATTR)) {
        return;
    }
    let starts: Vec<Option<usize>> = imp.blocks.iter().map(|b| b.stmts.iter().position(is_start)).collect();
    let succ = imp.successors();
    // Blocks entered after a start point (the start blocks' successors, transitively).
    let mut after = vec![false; imp.blocks.len()];
    let mut work: Vec<usize> = starts.iter().enumerate().filter(|(_, s)| s.is_some()).map(|(b, _)| b).collect();
    while let Some(b) = work.pop() {
        for &c in &succ[b] {
            if !after[c] {
                after[c] = true;
                work.push(c);
            }
        }
    }
    for (b, blk) in imp.blocks.iter_mut().enumerate() {
        let checked_from = if after[b] { 0 } else { starts[b].unwrap_or(usize::MAX) };
        for s in blk.stmts.iter_mut().take(checked_from) {
            if let StmtKind::Assert { expr, .. } = &mut s.kind {
                let expr = std::mem::replace(expr, Expr::bool(true));
                s.kind = StmtKind::Assume { attrs: Vec::new(), expr };
            }
        }
    }
}

fn is_start(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Assume { attrs, .. } if has_attr(attrs, START))
}
