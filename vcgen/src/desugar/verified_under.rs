//! `assert {:verified_under A} e;`: the assertion is checked only in states where `A` is false,
//! that is `A || e` is checked (Boogie's `AssertCmd.VerifiedUnder`, test2/AssertVerifiedUnder0.bpl:
//! `{:verified_under true} false` verifies, `{:verified_under false} false` fails). Several
//! such attributes form a conjunction (`{:verified_under A} {:verified_under B} e` checks
//! `(A && B) || e`). Applied to the asserts left after desugaring, so a loop invariant that
//! carries the attribute is checked that way while its assumed copies assume it whole, as
//! Boogie's loop cutting does.
//!
//! Without this rule kivl checked `e` itself: sound, but with errors Boogie does not report.

use ivl::ast::*;
use ivl::blocks::BlockImpl;

const ATTR: &str = "verified_under";

/// Rewrites every `assert {:verified_under A} e` of `imp` into `assert (A) || e`.
pub fn apply(imp: &mut BlockImpl) {
    for s in imp.blocks.iter_mut().flat_map(|b| b.stmts.iter_mut()) {
        if let StmtKind::Assert { attrs, expr } = &mut s.kind {
            let under: Vec<Expr> = attrs
                .iter()
                .filter(|a| a.name.as_str() == ATTR)
                .filter_map(|a| match a.args.as_slice() {
                    [AttrArg::Expr(e)] => Some(e.clone()),
                    _ => None,
                })
                .collect();
            if under.is_empty() {
                continue;
            }
            attrs.retain(|a| a.name.as_str() != ATTR);
            let cond = under.into_iter().reduce(|a, b| Expr::binary(BinOp::And, a, b)).expect("not empty");
            let body = std::mem::replace(expr, Expr::bool(true));
            *expr = Expr::binary(BinOp::Or, cond, body);
        }
    }
}
