//! The fast path of expressions (the `EmptyErr` instance, module documentation of
//! [`super`]): the four expression levels as one `custom` parser that peeks at the next token,
//! with the common atoms and suffixes chosen by their first token.
//!
//! Separate from the declarative grammar it must equal step by step, so that the two can be
//! read side by side.

use super::operators::*;
use super::tokens::*;
use crate::ast::*;
use crate::diag::ErrorKind;
use crate::lexer::Tok;
use crate::parser::{sp, PErr, SS};
use chumsky::prelude::*;
use num_bigint::BigUint;

/// The sub-parsers of the declarative grammar the fast path runs, or falls back on for the
/// rarer forms.
pub(super) struct FastParts<E: PErr> {
    pub(super) atom: B<PE, E>,
    pub(super) suffix: B<(Suffix, Span), E>,
    pub(super) colon_ty: B<Type, E>,
}

impl<E: PErr> Clone for FastParts<E> {
    fn clone(&self) -> Self {
        FastParts { atom: self.atom.clone(), suffix: self.suffix.clone(), colon_ty: self.colon_ty.clone() }
    }
}

/// Consumes `tok` or fails without consuming.
pub(super) fn fast_token<E: PErr>(inp: &mut Inp<'_, E>, tok: Tok) -> Result<(), E> {
    if inp.peek() == Some(tok) {
        inp.next();
        Ok(())
    } else {
        let here = inp.cursor();
        Err(E::custom(inp.span_since(&here), ErrorKind::Syntax, "unexpected token"))
    }
}

/// The token after the next one.
pub(super) fn peek_second<E: PErr>(inp: &mut Inp<'_, E>) -> Option<Tok> {
    let save = inp.save();
    inp.next();
    let tok = inp.peek();
    inp.rewind(save);
    tok
}

/// `items` up to `close` (not consumed): `item` separated by commas, possibly none, as
/// `separated_by` parses them: when the first item fails the list is empty (and nothing of it
/// consumed), and a comma must be followed by an item.
pub(super) fn fast_items<T, E: PErr>(
    inp: &mut Inp<'_, E>,
    mut item: impl FnMut(&mut Inp<'_, E>) -> Result<T, E>,
    close: Tok,
    mut push: impl FnMut(T),
) -> Result<(), E> {
    if inp.peek() == Some(close) {
        return Ok(());
    }
    let save = inp.save();
    match item(inp) {
        Ok(x) => push(x),
        Err(_) => {
            inp.rewind(save);
            return Ok(());
        }
    }
    while inp.peek() == Some(Tok::Comma) {
        inp.next();
        push(item(inp)?);
    }
    Ok(())
}

/// `open exprs` (the opening token is next) up to `close`: [`fast_items`] of expressions with
/// their depth. The vector starts at the usual length (two arguments of a call, one index of a
/// map), so that it is rarely grown and seldom too long.
fn fast_list<E: PErr>(inp: &mut Inp<'_, E>, p: &FastParts<E>, close: Tok) -> Result<Args, E> {
    inp.next();
    let mut exprs = Vec::with_capacity(if close == Tok::RParen { 2 } else { 1 });
    let mut depth = 0;
    fast_items(
        inp,
        |inp| fast_nested(inp, p),
        close,
        |(e, d)| {
            exprs.push(e);
            depth = depth.max(d);
        },
    )?;
    Ok(Args { exprs, depth })
}

/// `atom`, chosen by its first token where that is cheap: variables and function calls,
/// `true`/`false` and small literals, parenthesized expressions (not quantifiers) and `if`
/// expressions. Each is the alternative of `atom` that token selects, step by step (a call
/// whose argument list fails is a variable, as `args.or_not()` makes it); every other token
/// runs the declarative `atom`.
pub(super) fn fast_atom<E: PErr>(inp: &mut Inp<'_, E>, p: &FastParts<E>) -> Result<PE, E> {
    let before = inp.cursor();
    macro_rules! leaf {
        ($kind:expr) => {{
            inp.next();
            Ok((Expr::new($kind, sp(inp.span_since(&before))), 1))
        }};
    }
    match inp.peek() {
        Some(Tok::Ident(i)) => {
            inp.next();
            let id = Ident::new(inp.state().names[i as usize].clone(), sp(inp.span_since(&before)));
            if inp.peek() == Some(Tok::LParen) {
                let save = inp.save();
                match fast_list(inp, p, Tok::RParen).and_then(|a| fast_token(inp, Tok::RParen).map(|()| a)) {
                    Ok(a) => return Ok(node(ExprKind::Call(id, a.exprs), sp(inp.span_since(&before)), a.depth)),
                    Err(_) => inp.rewind(save),
                }
            }
            let span = id.span;
            Ok((Expr::new(ExprKind::Var(id), span), 1))
        }
        Some(Tok::True) => leaf!(ExprKind::BoolLit(true)),
        Some(Tok::False) => leaf!(ExprKind::BoolLit(false)),
        Some(Tok::SmallInt(v)) => leaf!(ExprKind::IntLit(BigUint::from(v))),
        Some(Tok::SmallBv(v, w)) => leaf!(ExprKind::BvLit { value: BigUint::from(v), width: w }),
        Some(Tok::LParen) if !matches!(peek_second(inp), Some(Tok::Forall | Tok::Exists | Tok::Lambda | Tok::Var)) => {
            inp.next();
            let (mut x, d) = fast_nested(inp, p)?;
            fast_token(inp, Tok::RParen)?;
            x.span = sp(inp.span_since(&before));
            Ok((x, d))
        }
        Some(Tok::If) => {
            inp.next();
            let (c, dc) = fast_nested(inp, p)?;
            fast_token(inp, Tok::Then)?;
            let (a, da) = fast_nested(inp, p)?;
            fast_token(inp, Tok::Else)?;
            let (b, db) = fast_nested(inp, p)?;
            let span = sp(inp.span_since(&before));
            Ok(node(ExprKind::IfThenElse(Box::new(c), Box::new(a), Box::new(b)), span, dc.max(da).max(db)))
        }
        _ => inp.parse(&p.atom),
    }
}

/// One `[..]` suffix (the `[` is next): selections and updates by hand, extractions `[hi:lo]`
/// (a number and a colon first) by the declarative `suffix`.
pub(super) fn fast_suffix<E: PErr>(inp: &mut Inp<'_, E>, p: &FastParts<E>) -> Result<(Suffix, Span), E> {
    if matches!(peek_second(inp), Some(Tok::SmallInt(_) | Tok::Int(_))) {
        return inp.parse(&p.suffix);
    }
    let before = inp.cursor();
    let idx = fast_list(inp, p, Tok::RBracket)?;
    let suffix = if inp.peek() == Some(Tok::Assign) {
        inp.next();
        Suffix::Store(idx, fast_nested(inp, p)?)
    } else {
        Suffix::Select(idx)
    };
    fast_token(inp, Tok::RBracket)?;
    Ok((suffix, sp(inp.span_since(&before))))
}

/// The fast path of [`expr_parser`]: the levels `nested(binary)`, `unary`, `coerce` and
/// `postfix` as one hand-written loop that peeks at the next token instead of trying (and
/// rewinding) one combinator per level. See the module documentation.
pub(super) fn fast_expr<E: PErr>(p: FastParts<E>) -> impl P<PE, E> {
    custom(move |inp: &mut Inp<'_, E>| fast_binary(inp, &p))
}

/// An expression nested in the one being parsed (an argument, an index, a parenthesized or
/// `if` part): [`fast_binary`] called directly rather than through the `Recursive` parser,
/// on a stack grown when it runs low, as chumsky's `recursive` does.
fn fast_nested<E: PErr>(inp: &mut Inp<'_, E>, p: &FastParts<E>) -> Result<PE, E> {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || fast_binary(inp, p))
}

/// `nested(binary)`: `unary (binop unary)*`, one nesting level deeper.
fn fast_binary<E: PErr>(inp: &mut Inp<'_, E>, p: &FastParts<E>) -> Result<PE, E> {
    // `nested`: as `enter` / `exit`.
    enter_level(inp)?;
    let first = fast_unary(inp, p)?;
    let mut rest = Vec::new();
    while let Some(op) = inp.peek().and_then(binop_of) {
        let save = inp.save();
        let before = inp.cursor();
        inp.next();
        let op_span = inp.span_since(&before);
        match fast_unary(inp, p) {
            Ok(b) => rest.push(((op, op_span), b)),
            Err(_) => {
                inp.rewind(save);
                break;
            }
        }
    }
    let e = if rest.is_empty() {
        first
    } else {
        let mut errs = Vec::new();
        let e = resolve(first, rest, &mut |s: SS, msg: &str| errs.push(E::custom(s, ErrorKind::Syntax, msg)));
        for err in errs {
            inp.emit(err);
        }
        e
    };
    let st = inp.state();
    st.depth = st.depth.saturating_sub(1);
    Ok(e)
}

/// `unary`: `unop* coerce`, folded from the right.
fn fast_unary<E: PErr>(inp: &mut Inp<'_, E>, p: &FastParts<E>) -> Result<PE, E> {
    let mut ops: Vec<(UnOp, Span)> = Vec::new();
    loop {
        let op = match inp.peek() {
            Some(Tok::Not) => UnOp::Not,
            Some(Tok::Minus) => UnOp::Neg,
            _ => break,
        };
        let before = inp.cursor();
        inp.next();
        ops.push((op, sp(inp.span_since(&before))));
    }
    // `postfix`: `atom suffix*`.
    let (mut a, mut da) = fast_atom(inp, p)?;
    while inp.peek() == Some(Tok::LBracket) {
        let save = inp.save();
        match fast_suffix(inp, p) {
            Ok(suffix) => (a, da) = apply_suffix((a, da), suffix),
            Err(_) => {
                inp.rewind(save);
                break;
            }
        }
    }
    // `coerce`: `postfix (: type)*`.
    while inp.peek() == Some(Tok::Colon) {
        let save = inp.save();
        match inp.parse(&p.colon_ty) {
            Ok(ty) => {
                let span = a.span.to(ty.span);
                (a, da) = node(ExprKind::Coerce(Box::new(a), Box::new(ty)), span, da);
            }
            Err(_) => {
                inp.rewind(save);
                break;
            }
        }
    }
    for (op, s) in ops.into_iter().rev() {
        let span = s.to(a.span);
        (a, da) = node(ExprKind::Unary(op, Box::new(a)), span, da);
    }
    Ok((a, da))
}
