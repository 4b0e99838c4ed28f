//! Token-level pieces of the grammar: single tokens, the text of identifiers and literals,
//! identifiers, comma-separated lists, expression nodes with their depth, and the nesting
//! depth that every nested construct enters and leaves ([`MAX_NESTING`]); and the types of the
//! parsers themselves ([`P`], [`PE`]).
//!
//! Separate because every other part of the grammar is built from them.

use crate::ast::*;
use crate::diag::ErrorKind;
use crate::lexer::Tok;
use crate::parser::{sp, PErr, PState, TokInput, MAX_EXPR_DEPTH, MAX_NESTING};
use chumsky::extra::Full;
use chumsky::prelude::*;
use num_bigint::BigUint;
use smol_str::SmolStr;

pub(super) type Ex<E> = Full<E, PState, ()>;
pub(super) type B<O, E> = Boxed<'static, 'static, TokInput, O, Ex<E>>;

/// Shorthand for "a parser of `O`".
pub(super) trait P<O, E: PErr>: Parser<'static, TokInput, O, Ex<E>> + Clone + 'static {}
impl<T, O, E: PErr> P<O, E> for T where T: Parser<'static, TokInput, O, Ex<E>> + Clone + 'static {}

/// An expression and the depth of its tree.
pub(super) type PE = (Expr, u32);
pub(super) const POISON: u32 = u32::MAX;

pub(super) type Inp<'p, E> = chumsky::input::InputRef<'static, 'p, TokInput, Ex<E>>;
pub(super) type Extra<'b, E> = chumsky::input::MapExtra<'static, 'b, TokInput, Ex<E>>;

/// The text of an identifier or literal token.
pub(super) fn name_of<E: PErr>(e: &mut Extra<'_, E>, i: u32) -> SmolStr {
    e.state().names[i as usize].clone()
}

pub(super) fn t<E: PErr>(tok: Tok) -> impl P<Tok, E> {
    just(tok)
}

pub(super) fn big(digits: &str) -> BigUint {
    if digits.len() <= 19 {
        if let Ok(v) = digits.parse::<u64>() {
            return BigUint::from(v);
        }
    }
    BigUint::parse_bytes(digits.as_bytes(), 10).unwrap_or_default()
}

/// A node over children of depth `child_depth`; a placeholder once too deep.
pub(super) fn node(kind: ExprKind, span: Span, child_depth: u32) -> PE {
    if child_depth >= MAX_EXPR_DEPTH {
        (Expr::new(ExprKind::BoolLit(false), span), POISON)
    } else {
        (Expr::new(kind, span), child_depth + 1)
    }
}

/// Expressions collected with the depth of the deepest.
#[derive(Default)]
pub(super) struct Args {
    pub(super) exprs: Vec<Expr>,
    pub(super) depth: u32,
}

impl FromIterator<PE> for Args {
    fn from_iter<I: IntoIterator<Item = PE>>(iter: I) -> Self {
        let mut a = Args::default();
        for (e, d) in iter {
            a.exprs.push(e);
            a.depth = a.depth.max(d);
        }
        a
    }
}

pub(super) fn bin(a: PE, (op, b): (BinOp, PE)) -> PE {
    let span = a.0.span.to(b.0.span);
    let d = a.1.max(b.1);
    node(ExprKind::Binary(op, Box::new(a.0), Box::new(b.0)), span, d)
}

/// Enters one level of nesting, or fails with "nesting too deep".
pub(super) fn enter<E: PErr>() -> impl P<(), E> {
    custom(|inp: &mut Inp<'_, E>| enter_level(inp))
}

/// The step of [`enter`], for hand-written parsers.
pub(super) fn enter_level<E: PErr>(inp: &mut Inp<'_, E>) -> Result<(), E> {
    let before = inp.cursor();
    if inp.state().depth >= MAX_NESTING {
        let span = inp.span_since(&before);
        return Err(E::custom(span, ErrorKind::Syntax, &format!("nesting too deep (more than {MAX_NESTING} levels)")));
    }
    inp.state().depth += 1;
    Ok(())
}

pub(super) fn exit<E: PErr>() -> impl P<(), E> {
    custom(|inp: &mut Inp<'_, E>| {
        let st = inp.state();
        st.depth = st.depth.saturating_sub(1);
        Ok(())
    })
}

/// `inner`, counted as one level of nesting.
pub(super) fn nested<O: 'static, E: PErr>(inner: impl P<O, E>) -> impl P<O, E> {
    enter().ignore_then(inner).then_ignore(exit())
}

/// An identifier (the contextual keywords included), labelled for messages.
pub(super) fn ident_p<E: PErr>() -> impl P<Ident, E> {
    ident_unlabelled().labelled("identifier")
}

/// An identifier, for positions whose enclosing parser has a label already (expressions).
pub(super) fn ident_unlabelled<E: PErr>() -> impl P<Ident, E> {
    select! {
        Tok::Ident(i) = e => { let s = sp(e.span()); Ident::new(name_of(e, i), s) },
        Tok::Barrier = e => Ident::new(SmolStr::new_static("barrier"), sp(e.span())),
        Tok::Atomic = e => Ident::new(SmolStr::new_static("atomic"), sp(e.span())),
        Tok::Vec = e => Ident::new(SmolStr::new_static("vec"), sp(e.span())),
        Tok::Psi = e => Ident::new(SmolStr::new_static("psi"), sp(e.span())),
        Tok::Yield = e => Ident::new(SmolStr::new_static("yield"), sp(e.span())),
        Tok::Par = e => Ident::new(SmolStr::new_static("par"), sp(e.span())),
        Tok::Async = e => Ident::new(SmolStr::new_static("async"), sp(e.span())),
    }
}

pub(super) fn comma_list<O: 'static, E: PErr>(p: impl P<O, E>) -> impl P<Vec<O>, E> {
    p.separated_by(t(Tok::Comma)).at_least(1).collect::<Vec<_>>()
}
