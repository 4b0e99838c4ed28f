//! The grammar of statements: simple statements, structured ones (`if`, `while`, `barrier`,
//! `vec`), labels, and the fast path of the common simple statements ([`fast_stmt`]).
//!
//! Separate from expressions, which it embeds, and from declarations, which embed it.

use super::fast_exprs::*;
use super::tokens::*;
use crate::ast::*;
use crate::diag::ErrorKind;
use crate::lexer::Tok;
use crate::parser::{sp, PErr};
use chumsky::prelude::*;

pub(super) struct StmtParts<E: PErr> {
    pub(super) ident: B<Ident, E>,
    pub(super) expr: B<Expr, E>,
    /// `expr` with its depth (for the fast path's attributes).
    pub(super) expr_pe: B<PE, E>,
    pub(super) attrs: B<Vec<Attribute>, E>,
}

pub(super) fn stmt_parser<E: PErr>(p: &StmtParts<E>) -> impl P<Stmt, E> {
    let expr_pe = p.expr_pe.clone();
    let ident = p.ident.clone();
    let expr = p.expr.clone();
    let attrs = p.attrs.clone();
    let semi = || t::<E>(Tok::Semi);
    let idents1 = comma_list(ident.clone()).boxed();
    let exprs0 = expr.clone().separated_by(t(Tok::Comma)).collect::<Vec<_>>().boxed();
    let lhs = ident
        .clone()
        .then(exprs0.clone().delimited_by(t(Tok::LBracket), t(Tok::RBracket)).repeated().collect::<Vec<_>>())
        .map_with(|(var, indices), e| Lhs { var, indices, span: sp(e.span()) })
        .boxed();
    // Boogie 2.4.1 accepts attributes in front of a right-hand side (`o := {:print "…"} o + 1;`,
    // test15/trace0.bpl); they only ask Boogie to print a value in its traces, so kivl reads
    // and drops them.
    let rhs = attrs.clone().ignore_then(expr.clone()).labelled("expression");
    let assignment =
        comma_list(lhs.clone()).then_ignore(t(Tok::Assign)).then(comma_list(rhs)).then_ignore(semi()).boxed();

    recursive(move |stmt| {
        let block = stmt.clone().repeated().collect::<Vec<Stmt>>().delimited_by(t(Tok::LBrace), t(Tok::RBrace)).boxed();
        let guard = t(Tok::LParen)
            .ignore_then(choice((t(Tok::Star).to(None), expr.clone().map(Some))))
            .then_ignore(t(Tok::RParen))
            .boxed();

        let assign = assignment.clone().map(|(lhss, rhss)| StmtKind::Assign { lhss, rhss });
        let label = ident.clone().then_ignore(t(Tok::Colon)).map(StmtKind::Label);
        let assert = t(Tok::Assert)
            .ignore_then(attrs.clone())
            .then(expr.clone())
            .then_ignore(semi())
            .map(|(attrs, expr)| StmtKind::Assert { attrs, expr });
        let assume = t(Tok::Assume)
            .ignore_then(attrs.clone())
            .then(expr.clone())
            .then_ignore(semi())
            .map(|(attrs, expr)| StmtKind::Assume { attrs, expr });
        let havoc = t(Tok::Havoc).ignore_then(idents1.clone()).then_ignore(semi()).map(StmtKind::Havoc);
        let call = t(Tok::Call)
            .ignore_then(attrs.clone())
            .then(idents1.clone().then_ignore(t(Tok::Assign)).or_not())
            .then(ident.clone())
            .then(exprs0.clone().delimited_by(t(Tok::LParen), t(Tok::RParen)))
            .then_ignore(semi())
            .map(|(((attrs, outs), proc), args)| StmtKind::Call { attrs, outs: outs.unwrap_or_default(), proc, args });
        let goto = t(Tok::Goto).ignore_then(idents1.clone()).then_ignore(semi()).map(StmtKind::Goto);
        let ret = t(Tok::Return).then(semi()).to(StmtKind::Return);
        let brk = t(Tok::Break).ignore_then(ident.clone().or_not()).then_ignore(semi()).map(StmtKind::Break);
        let invariant = t(Tok::Free)
            .or_not()
            .then_ignore(t(Tok::Invariant))
            .then(attrs.clone())
            .then(expr.clone())
            .then_ignore(semi())
            .map_with(|((free, attrs), expr), e| Invariant { free: free.is_some(), attrs, expr, span: sp(e.span()) });
        let while_ = t(Tok::While)
            .ignore_then(guard.clone())
            .then(invariant.repeated().collect::<Vec<_>>())
            .then(block.clone())
            .map(|((cond, invariants), body)| StmtKind::While { cond, invariants, body });
        let barrier_inv = t(Tok::Invariant)
            .ignore_then(attrs.clone())
            .then(expr.clone())
            .then_ignore(semi())
            .map_with(|(attrs, expr), e| BarrierInvariant { attrs, expr, span: sp(e.span()) });
        let barrier = t(Tok::Barrier)
            .ignore_then(attrs.clone())
            .then(choice((semi().to(Vec::new()), barrier_inv.repeated().at_least(1).collect::<Vec<_>>())))
            .map(|(attrs, invariants)| StmtKind::Barrier { attrs, invariants });
        let atomic_op = ident.clone().try_map(|op, span| {
            AtomicOp::from_name(op.name.as_str()).ok_or_else(|| {
                let names: Vec<&str> = AtomicOp::ALL.iter().map(|o| o.name()).collect();
                E::custom(
                    span,
                    ErrorKind::Syntax,
                    &format!("unknown atomic operation `{}` (one of {})", op.name, names.join(", ")),
                )
            })
        });
        let atomic = t(Tok::Atomic)
            .ignore_then(ident.clone().then_ignore(t(Tok::Assign)).or_not())
            .then(atomic_op)
            .then_ignore(t(Tok::LParen))
            .then(lhs.clone())
            .then(t(Tok::Comma).ignore_then(expr.clone()).repeated().collect::<Vec<_>>())
            .then_ignore(t(Tok::RParen))
            .then_ignore(semi())
            .map(|(((out, op), target), args)| StmtKind::Atomic(AtomicStmt { op, out, target, args }));
        let vector = t(Tok::Vec)
            .ignore_then(choice((
                t(Tok::Havoc).ignore_then(idents1.clone()).then_ignore(semi()).map(VectorStmt::Havoc),
                t(Tok::Assume).ignore_then(expr.clone()).then_ignore(semi()).map(VectorStmt::Assume),
                t(Tok::Assert).ignore_then(expr.clone()).then_ignore(semi()).map(VectorStmt::Assert),
                t(Tok::Psi)
                    .ignore_then(lhs.clone())
                    .then_ignore(t(Tok::Assign))
                    .then(expr.clone())
                    .then_ignore(semi())
                    .map(|(lhs, rhs)| VectorStmt::Psi { lhs, rhs }),
                assignment.clone().map(|(lhss, rhss)| VectorStmt::Assign { lhss, rhss }),
            )))
            .map(StmtKind::Vector);
        // `free call P(..);`: the call with the attribute that marks it free.
        let free_call = t(Tok::Free).map_with(|_, e| sp(e.span())).then(call.clone()).map(|(span, mut k)| {
            if let StmtKind::Call { attrs, .. } = &mut k {
                attrs.insert(0, Attribute { name: Ident::new(FREE_CALL_ATTR, span), args: Vec::new(), span });
            }
            k
        });
        let skip_to_semi = any().and_is(semi().not()).repeated().then(semi());
        let unsupported = choice((
            t(Tok::Yield).to("`yield` statements are not supported"),
            t(Tok::Par).to("parallel calls (`par`) are not supported"),
            t(Tok::Async).to("asynchronous calls (`async`) are not supported"),
            t(Tok::Call).then(t(Tok::Forall)).to("`call forall` is not supported"),
        ))
        .map_with(|m, e| (m, e.span()))
        .then_ignore(skip_to_semi)
        .validate(|(m, s), _, emitter| {
            emitter.emit(E::custom(s, ErrorKind::Unsupported, m));
            StmtKind::Block(Vec::new())
        });
        let simple = choice((
            assign,
            call,
            assume,
            assert,
            label,
            goto,
            havoc,
            ret,
            while_,
            brk,
            barrier,
            atomic,
            vector,
            block.clone().map(StmtKind::Block),
            free_call,
            unsupported,
        ))
        .map_with(|k, e| Stmt::new(k, sp(e.span())));

        let if_stmt = recursive(move |if_stmt| {
            nested(
                t(Tok::If)
                    .ignore_then(guard)
                    .then(block.clone())
                    .then(
                        t(Tok::Else)
                            .ignore_then(choice((if_stmt.map(|s| Else::If(Box::new(s))), block.map(Else::Block))))
                            .or_not(),
                    )
                    .map_with(|((cond, then), els), e| Stmt::new(StmtKind::If { cond, then, els }, sp(e.span()))),
            )
        });
        if !E::FAST_PATH {
            return nested(choice((simple, if_stmt))).boxed();
        }
        let parts = FastStmtParts {
            simple: simple.boxed(),
            ident: ident.clone(),
            idents1: idents1.clone(),
            expr: expr.clone(),
            expr_pe: expr_pe.clone(),
            attrs: attrs.clone(),
            assignment: assignment.clone(),
        };
        nested(choice((fast_stmt(parts), if_stmt))).boxed()
    })
}

/// What the statement fast path runs, or falls back on.
struct FastStmtParts<E: PErr> {
    /// The declarative choice of simple statements.
    simple: B<Stmt, E>,
    ident: B<Ident, E>,
    idents1: B<Vec<Ident>, E>,
    expr: B<Expr, E>,
    expr_pe: B<PE, E>,
    attrs: B<Vec<Attribute>, E>,
    assignment: B<(Vec<Lhs>, Vec<Expr>), E>,
}

impl<E: PErr> Clone for FastStmtParts<E> {
    fn clone(&self) -> Self {
        FastStmtParts {
            simple: self.simple.clone(),
            ident: self.ident.clone(),
            idents1: self.idents1.clone(),
            expr: self.expr.clone(),
            expr_pe: self.expr_pe.clone(),
            attrs: self.attrs.clone(),
            assignment: self.assignment.clone(),
        }
    }
}

/// The attributes before a statement: `{:name args}` by hand, as `attribute` parses it (the
/// arguments are strings or expressions, separated by commas, possibly none); at a `{` without
/// a `:` (a trigger, which `attrs` parses and reports) the rest goes to `attrs` itself. An
/// attribute that fails is left unparsed, as `repeated` leaves it; so is one nested too
/// deeply, whose report the parse must then fail to reach (the rich instance gives it).
fn fast_attrs<E: PErr>(inp: &mut Inp<'_, E>, p: &FastStmtParts<E>) -> Result<Vec<Attribute>, E> {
    let mut out = Vec::new();
    while inp.peek() == Some(Tok::LBrace) {
        if peek_second(inp) != Some(Tok::Colon) {
            out.extend(inp.parse(&p.attrs)?);
            break;
        }
        let save = inp.save();
        match fast_attr(inp, p) {
            Ok(a) => out.push(a),
            Err(_) => {
                inp.rewind(save);
                break;
            }
        }
    }
    Ok(out)
}

/// One `{:name args}` (the `{` is next).
fn fast_attr<E: PErr>(inp: &mut Inp<'_, E>, p: &FastStmtParts<E>) -> Result<Attribute, E> {
    let before = inp.cursor();
    inp.next();
    inp.next();
    let name = inp.parse(&p.ident)?;
    let mut args = Vec::new();
    let mut depth = 0;
    let arg = |inp: &mut Inp<'_, E>| -> Result<(AttrArg, u32), E> {
        if let Some(Tok::Str(i)) = inp.peek() {
            let at = inp.cursor();
            inp.next();
            let text = inp.state().names[i as usize].clone();
            return Ok((AttrArg::String(text, sp(inp.span_since(&at))), 0));
        }
        let (x, d) = inp.parse(&p.expr_pe)?;
        Ok((AttrArg::Expr(x), d))
    };
    fast_items(inp, arg, Tok::RBrace, |(a, d)| {
        args.push(a);
        depth = depth.max(d);
    })?;
    fast_token(inp, Tok::RBrace)?;
    if depth == POISON {
        return Err(E::custom(inp.span_since(&before), ErrorKind::Syntax, "expression nested too deeply"));
    }
    Ok(Attribute { name, args, span: sp(inp.span_since(&before)) })
}

/// The simple statements, chosen by their first token where that is cheap: `assume`,
/// `assert`, `call` (not `call forall`) and assignments (an identifier not followed by the `:`
/// of a label). For such a token every other alternative of `simple` fails on it, so the
/// choice is decided by it: each arm runs the steps of its alternative (a `call`'s outputs
/// `x, y :=` are optional as `or_not` makes them). Every other token runs `simple` itself.
fn fast_stmt<E: PErr>(p: FastStmtParts<E>) -> impl P<Stmt, E> {
    custom(move |inp: &mut Inp<'_, E>| {
        let before = inp.cursor();
        let kind = match inp.peek() {
            Some(tok @ (Tok::Assume | Tok::Assert)) => {
                inp.next();
                let attrs = fast_attrs(inp, &p)?;
                let expr = inp.parse(&p.expr)?;
                fast_token(inp, Tok::Semi)?;
                if tok == Tok::Assume {
                    StmtKind::Assume { attrs, expr }
                } else {
                    StmtKind::Assert { attrs, expr }
                }
            }
            Some(Tok::Call) if peek_second(inp) != Some(Tok::Forall) => {
                inp.next();
                let attrs = fast_attrs(inp, &p)?;
                let save = inp.save();
                let outs = match inp.parse(&p.idents1).and_then(|outs| fast_token(inp, Tok::Assign).map(|()| outs)) {
                    Ok(outs) => outs,
                    Err(_) => {
                        inp.rewind(save);
                        Vec::new()
                    }
                };
                let proc = inp.parse(&p.ident)?;
                if inp.peek() != Some(Tok::LParen) {
                    return Err(E::custom(inp.span_since(&before), ErrorKind::Syntax, "expected `(`"));
                }
                inp.next();
                let mut args = Vec::new();
                fast_items(inp, |inp| inp.parse(&p.expr), Tok::RParen, |e| args.push(e))?;
                fast_token(inp, Tok::RParen)?;
                fast_token(inp, Tok::Semi)?;
                StmtKind::Call { attrs, outs, proc, args }
            }
            Some(Tok::Ident(_)) if peek_second(inp) != Some(Tok::Colon) => {
                let (lhss, rhss) = inp.parse(&p.assignment)?;
                StmtKind::Assign { lhss, rhss }
            }
            _ => return inp.parse(&p.simple),
        };
        Ok(Stmt::new(kind, sp(inp.span_since(&before))))
    })
}
