//! How the pieces of an expression combine: postfix suffixes (selects, updates, bit-vector
//! extracts) and binary operators, resolved by Boogie's precedence and associativity
//! ([`resolve`]).
//!
//! Separate because both the declarative grammar ([`super::exprs`]) and its fast path
//! ([`super::fast_exprs`]) build their nodes here, which is what keeps the two equal.

use super::tokens::*;
use crate::ast::*;
use crate::lexer::Tok;
use crate::parser::SS;

/// A postfix suffix of an expression.
pub(super) enum Suffix {
    Select(Args),
    Store(Args, PE),
    Extract(Option<u32>, Option<u32>),
}

/// `a[..]`, `a[.. := v]` or `a[hi:lo]`: a postfix suffix applied to the expression before it.
pub(super) fn apply_suffix((a, da): PE, (s, s_span): (Suffix, Span)) -> PE {
    let span = a.span.to(s_span);
    match s {
        Suffix::Select(idx) => node(ExprKind::Select(Box::new(a), idx.exprs), span, da.max(idx.depth)),
        Suffix::Store(idx, v) => {
            let d = da.max(idx.depth).max(v.1);
            node(ExprKind::Store(Box::new(a), idx.exprs, Box::new(v.0)), span, d)
        }
        Suffix::Extract(hi, lo) => node(ExprKind::Extract(Box::new(a), hi.unwrap_or(0), lo.unwrap_or(0)), span, da),
    }
}

/// The operator a token stands for, when it is a binary one.
pub(super) fn binop_of(tok: Tok) -> Option<BinOp> {
    Some(match tok {
        Tok::Iff => BinOp::Iff,
        Tok::Implies => BinOp::Implies,
        Tok::Explies => BinOp::Explies,
        Tok::And => BinOp::And,
        Tok::Or => BinOp::Or,
        Tok::EqEq => BinOp::Eq,
        Tok::Neq => BinOp::Neq,
        Tok::Lt => BinOp::Lt,
        Tok::Le => BinOp::Le,
        Tok::Gt => BinOp::Gt,
        Tok::Ge => BinOp::Ge,
        Tok::Subtype => BinOp::Subtype,
        Tok::Concat => BinOp::Concat,
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Div => BinOp::Div,
        Tok::Mod => BinOp::Mod,
        Tok::Slash => BinOp::RealDiv,
        Tok::StarStar => BinOp::Pow,
        _ => return None,
    })
}

/// Binding levels of binary operators, loosest first (Boogie 2.4.1, `BoogiePL.atg`).
fn level(op: BinOp) -> u8 {
    match op {
        BinOp::Iff => 0,
        BinOp::Implies | BinOp::Explies => 1,
        BinOp::And | BinOp::Or => 2,
        BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Subtype => 3,
        BinOp::Concat => 4,
        BinOp::Add | BinOp::Sub => 5,
        BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::RealDiv => 6,
        BinOp::Pow => 7,
    }
}

/// Builds the tree of `first op1 x1 op2 x2 ...` by operator precedence (one pass, an operator
/// stack). Associativity: `<==>`, `&&`, `||`, `<==`, `++`, `+ -`, `* div mod /` to the left,
/// `==>` and `**` to the right; relations do not associate; `&&` with `||` and `==>` with `<==` do not
/// mix without parentheses (the first such error is reported, at its later operator).
pub(super) fn resolve(first: PE, rest: Vec<((BinOp, SS), PE)>, report: &mut dyn FnMut(SS, &str)) -> PE {
    if rest.len() == 1 {
        let ((op, _), b) = rest.into_iter().next().expect("one");
        return bin(first, (op, b));
    }
    let mut vals: Vec<PE> = Vec::with_capacity(rest.len() + 1);
    let mut ops: Vec<BinOp> = Vec::with_capacity(rest.len());
    fn reduce(vals: &mut Vec<PE>, ops: &mut Vec<BinOp>) {
        let op = ops.pop().expect("an operator");
        let b = vals.pop().expect("a right operand");
        let a = vals.pop().expect("a left operand");
        vals.push(bin(a, (op, b)));
    }
    vals.push(first);
    let mut reported = false;
    for ((op, s), x) in rest {
        let l = level(op);
        while let Some(&top) = ops.last() {
            let tl = level(top);
            if tl < l {
                break;
            }
            if tl == l && !reported {
                let msg = match l {
                    1 if top != op => "illegal mixture of `==>` and `<==`, use parentheses to disambiguate",
                    2 if top != op => "`&&` and `||` cannot be mixed without parentheses",
                    3 => "comparisons do not associate, use parentheses",
                    _ => "",
                };
                if !msg.is_empty() {
                    report(s, msg);
                    reported = true;
                }
            }
            // `==>` and `**` are right-associative: do not reduce `a ==> b` before `==> c`.
            if tl == l && matches!((op, top), (BinOp::Implies, BinOp::Implies) | (BinOp::Pow, BinOp::Pow)) {
                break;
            }
            reduce(&mut vals, &mut ops);
        }
        ops.push(op);
        vals.push(x);
    }
    while !ops.is_empty() {
        reduce(&mut vals, &mut ops);
    }
    vals.pop().expect("the whole expression")
}
