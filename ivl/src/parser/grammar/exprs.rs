//! The declarative grammar of expressions: attributes and triggers, atoms, suffixes (selects,
//! updates, bit-vector extracts), unary operators, coercions, and binary operators (resolved
//! by [`super::operators`]).
//!
//! Separate from statements and declarations, which embed it; the `Rich` instance runs it
//! as written, the fast path ([`super::fast_exprs`]) replaces its common levels.

use super::fast_exprs::*;
use super::operators::*;
use super::tokens::*;
use super::types::*;
use crate::ast::*;
use crate::diag::ErrorKind;
use crate::lexer::Tok;
use crate::parser::{sp, PErr, MAX_EXPR_DEPTH, SS};
use chumsky::prelude::*;
use num_bigint::BigUint;
use smol_str::SmolStr;

pub(super) enum AttrOrTrigger {
    Attr(Attribute),
    Trigger(Trigger),
}

fn attr_arg<E: PErr>(expr: impl P<PE, E>) -> impl P<(AttrArg, u32), E> {
    choice((
        select! { Tok::Str(i) = e => { let s = sp(e.span()); (AttrArg::String(name_of(e, i), s), 0) } },
        expr.map(|(x, d)| (AttrArg::Expr(x), d)),
    ))
}

/// `{:name args}` with the depth of its deepest argument.
fn attribute_pe<E: PErr>(ident: B<Ident, E>, expr: impl P<PE, E>) -> impl P<(Attribute, u32), E> {
    t(Tok::LBrace)
        .then(t(Tok::Colon))
        .ignore_then(ident)
        .then(attr_arg(expr).separated_by(t(Tok::Comma)).collect::<Vec<_>>())
        .then_ignore(t(Tok::RBrace))
        .map_with(|(name, args), e| {
            let d = args.iter().map(|a| a.1).max().unwrap_or(0);
            (Attribute { name, args: args.into_iter().map(|a| a.0).collect(), span: sp(e.span()) }, d)
        })
}

/// `{:name args}` or a trigger `{ e1, ..., en }`, with the depth of its deepest expression.
pub(super) fn attr_or_trigger_pe<E: PErr>(ident: B<Ident, E>, expr: impl P<PE, E>) -> impl P<(AttrOrTrigger, u32), E> {
    t(Tok::LBrace)
        .ignore_then(choice((
            t(Tok::Colon)
                .ignore_then(ident)
                .then(attr_arg(expr.clone()).separated_by(t(Tok::Comma)).collect::<Vec<_>>())
                .map(|(name, args)| {
                    let d = args.iter().map(|a| a.1).max().unwrap_or(0);
                    (Ok::<_, Vec<Expr>>((name, args.into_iter().map(|a| a.0).collect::<Vec<_>>())), d)
                }),
            expr.separated_by(t(Tok::Comma)).at_least(1).collect::<Args>().map(|es| {
                let d = es.depth;
                (Err(es.exprs), d)
            }),
        )))
        .then_ignore(t(Tok::RBrace))
        .map_with(|(x, d), e| {
            let span = sp(e.span());
            let v = match x {
                Ok((name, args)) => AttrOrTrigger::Attr(Attribute { name, args, span }),
                Err(exprs) => AttrOrTrigger::Trigger(Trigger { exprs, span }),
            };
            (v, d)
        })
}

/// Reports an expression that hit the depth limit.
pub(super) fn checked<E: PErr>(p: impl P<PE, E>) -> impl P<Expr, E> {
    p.validate(|(x, d), _, emitter| {
        if d == POISON {
            emitter.emit(E::custom(
                (x.span.start as usize..x.span.end as usize).into(),
                ErrorKind::Syntax,
                &format!("expression nested too deeply (more than {MAX_EXPR_DEPTH} levels)"),
            ));
        }
        x
    })
}

pub(super) fn expr_parser<E: PErr>(ident: B<Ident, E>, ty: B<Type, E>) -> impl P<PE, E> {
    recursive(move |expr| {
        let exprs0 = expr.clone().separated_by(t(Tok::Comma)).collect::<Args>();
        let args = exprs0.clone().delimited_by(t(Tok::LParen), t(Tok::RParen));
        let paren_expr = expr.clone().delimited_by(t(Tok::LParen), t(Tok::RParen));

        // Literals.
        let literal = select! {
            Tok::True => ExprKind::BoolLit(true),
            Tok::False => ExprKind::BoolLit(false),
            Tok::SmallInt(v) => ExprKind::IntLit(BigUint::from(v)),
            Tok::SmallBv(v, w) => ExprKind::BvLit { value: BigUint::from(v), width: w },
            Tok::Int(i) = e => ExprKind::IntLit(big(&name_of(e, i))),
            Tok::Bv(i, w) = e => ExprKind::BvLit { value: big(&name_of(e, i)), width: w },
            Tok::Real(i) = e => ExprKind::RealLit(name_of(e, i)),
            // Kept as written; typed by its suffix (crate::floats).
            Tok::Float(i) = e => ExprKind::RealLit(name_of(e, i)),
        }
        .map_with(|k, e| (Expr::new(k, sp(e.span())), 1));
        let var_or_call = ident_unlabelled::<E>().then(args.clone().or_not()).map_with(|(id, args), e| match args {
            None => {
                let s = id.span;
                (Expr::new(ExprKind::Var(id), s), 1)
            }
            Some(a) => node(ExprKind::Call(id, a.exprs), sp(e.span()), a.depth),
        });
        let old = t(Tok::Old)
            .ignore_then(paren_expr.clone())
            .map_with(|(x, d), e| node(ExprKind::Old(Box::new(x)), sp(e.span()), d));
        let coercion_fn = select! { Tok::Int_ => "int", Tok::Real_ => "real" }
            .map_with(|name, e| Ident::new(SmolStr::new_static(name), sp(e.span())))
            .then(paren_expr.clone())
            .map_with(|(f, (x, d)), e| node(ExprKind::Call(f, vec![x]), sp(e.span()), d));
        let ite = t(Tok::If)
            .ignore_then(expr.clone())
            .then_ignore(t(Tok::Then))
            .then(expr.clone())
            .then_ignore(t(Tok::Else))
            .then(expr.clone())
            .map_with(|((c, a), b), e| {
                let d = c.1.max(a.1).max(b.1);
                node(ExprKind::IfThenElse(Box::new(c.0), Box::new(a.0), Box::new(b.0)), sp(e.span()), d)
            });

        // Quantifiers and lambdas: `(forall <T> x: T, y: U :: {:attr} {trigger} body)`.
        let attr = attribute_pe(ident.clone(), expr.clone());
        let attrs = attr.clone().repeated().collect::<Vec<_>>();
        let bound_group = attrs
            .clone()
            .then(comma_list(ident.clone()))
            .then_ignore(t(Tok::Colon))
            .then(ty.clone())
            .then(t(Tok::Where).ignore_then(expr.clone()).or_not())
            .validate(|(((attrs, names), ty), wh), _, emitter| {
                if let Some((w, _)) = wh {
                    emitter.emit(E::custom(
                        (w.span.start as usize..w.span.end as usize).into(),
                        ErrorKind::Syntax,
                        "where clause not allowed on bound variables",
                    ));
                }
                let d = attrs.iter().map(|a: &(Attribute, u32)| a.1).max().unwrap_or(0);
                let attrs: Vec<Attribute> = attrs.into_iter().map(|a| a.0).collect();
                let vars: Vec<TypedIdent> = names
                    .into_iter()
                    .map(|name| TypedIdent { name, ty: ty.clone(), where_clause: None, attrs: attrs.clone() })
                    .collect();
                (vars, d)
            });
        let bound_vars = comma_list(bound_group).map(|gs| {
            let d = gs.iter().map(|g| g.1).max().unwrap_or(0);
            (gs.into_iter().flat_map(|g| g.0).collect::<Vec<_>>(), d)
        });
        let attr_or_trigger = attr_or_trigger_pe(ident.clone(), expr.clone());
        let quant_kind = select! {
            Tok::Forall => QuantKind::Forall,
            Tok::Exists => QuantKind::Exists,
            Tok::Lambda => QuantKind::Lambda,
        };
        let quant = quant_kind
            .then(choice((
                type_params(ident.clone()).then(bound_vars.clone().or_not()),
                bound_vars.map(|b| (Vec::new(), Some(b))),
            )))
            .then_ignore(t(Tok::ColonColon))
            .then(attr_or_trigger.repeated().collect::<Vec<_>>())
            .then(expr.clone())
            .validate(|(((kind, (type_params, vars)), aots), body), e, emitter| {
                let (vars, vd) = vars.unwrap_or_default();
                let mut d = body.1.max(vd);
                let mut attrs = Vec::new();
                let mut triggers = Vec::new();
                for (aot, ad) in aots {
                    d = d.max(ad);
                    match aot {
                        AttrOrTrigger::Attr(a) => attrs.push(a),
                        AttrOrTrigger::Trigger(tr) => {
                            if kind == QuantKind::Lambda {
                                emitter.emit(E::custom(
                                    (tr.span.start as usize..tr.span.end as usize).into(),
                                    ErrorKind::Syntax,
                                    "triggers not allowed in lambda expressions",
                                ));
                            }
                            triggers.push(tr)
                        }
                    }
                }
                let q = Quantifier { kind, type_params, vars, attrs, triggers, body: body.0 };
                node(ExprKind::Quant(Box::new(q)), sp(e.span()), d)
            });
        // Let expressions: `(var x, y := e1, e2; body)`.
        let let_expr = t(Tok::Var)
            .ignore_then(comma_list(ident.clone()))
            .then_ignore(t(Tok::Assign))
            .then(comma_list(expr.clone()))
            .then_ignore(t(Tok::Semi))
            .then(expr.clone())
            .validate(|((vars, values), body): ((Vec<Ident>, Vec<PE>), PE), e, emitter| {
                if vars.len() != values.len() {
                    emitter.emit(E::custom(
                        e.span(),
                        ErrorKind::Syntax,
                        &format!("{} let-bound variables but {} values", vars.len(), values.len()),
                    ));
                }
                let d = values.iter().map(|v| v.1).max().unwrap_or(0).max(body.1);
                let values = values.into_iter().map(|v| v.0).collect();
                node(ExprKind::Let(Box::new(LetExpr { vars, values, body: body.0 })), sp(e.span()), d)
            });
        let paren = t(Tok::LParen)
            .ignore_then(choice((quant, let_expr, expr.clone())))
            .then_ignore(t(Tok::RParen))
            .map_with(|(mut x, d): PE, e| {
                x.span = sp(e.span());
                (x, d)
            });

        // Boogie's code expressions `|{ var ...; A: S* (goto L, ..; | return e;) ... }|`: local
        // variables, then blocks of simple statements (Boogie's `SpecBlock`).
        let ce_expr = || expr.clone().map(|(x, d): PE| (x, d));
        let ce_attrs = attribute_pe(ident.clone(), expr.clone()).repeated().collect::<Vec<_>>().map(|v| {
            let d = v.iter().map(|a: &(Attribute, u32)| a.1).max().unwrap_or(0);
            (v.into_iter().map(|a| a.0).collect::<Vec<_>>(), d)
        });
        let ce_idents = comma_list(ident.clone());
        let ce_exprs0 = ce_expr().separated_by(t(Tok::Comma)).collect::<Args>();
        let ce_lhs = ident
            .clone()
            .then(ce_exprs0.clone().delimited_by(t(Tok::LBracket), t(Tok::RBracket)).repeated().collect::<Vec<_>>())
            .map_with(|(var, idx), e| {
                let d = idx.iter().map(|a| a.depth).max().unwrap_or(0);
                (Lhs { var, indices: idx.into_iter().map(|a| a.exprs).collect(), span: sp(e.span()) }, d)
            });
        let ce_stmt = choice((
            t(Tok::Assert)
                .ignore_then(ce_attrs.clone())
                .then(ce_expr())
                .map(|((attrs, da), (expr, d))| (StmtKind::Assert { attrs, expr }, da.max(d))),
            t(Tok::Assume)
                .ignore_then(ce_attrs.clone())
                .then(ce_expr())
                .map(|((attrs, da), (expr, d))| (StmtKind::Assume { attrs, expr }, da.max(d))),
            t(Tok::Havoc).ignore_then(ce_idents.clone()).map(|ids| (StmtKind::Havoc(ids), 1)),
            t(Tok::Call)
                .ignore_then(ce_attrs.clone())
                .then(ce_idents.clone().then_ignore(t(Tok::Assign)).or_not())
                .then(ident.clone())
                .then(ce_exprs0.clone().delimited_by(t(Tok::LParen), t(Tok::RParen)))
                .map(|((((attrs, da), outs), proc), args)| {
                    let d = da.max(args.depth);
                    (StmtKind::Call { attrs, outs: outs.unwrap_or_default(), proc, args: args.exprs }, d)
                }),
            comma_list(ce_lhs).then_ignore(t(Tok::Assign)).then(comma_list(ce_expr())).map(|(lhss, rhss)| {
                let d = lhss.iter().map(|l| l.1).chain(rhss.iter().map(|r| r.1)).max().unwrap_or(0);
                let lhss = lhss.into_iter().map(|l| l.0).collect();
                (StmtKind::Assign { lhss, rhss: rhss.into_iter().map(|r| r.0).collect() }, d)
            }),
        ))
        .then_ignore(t(Tok::Semi))
        .map_with(|(k, d), e| (Stmt::new(k, sp(e.span())), d));
        let ce_end = choice((
            t(Tok::Goto).ignore_then(ce_idents.clone()).map(|ts| (CodeEnd::Goto(ts), 0)),
            t(Tok::Return).ignore_then(ce_expr()).map(|(x, d)| (CodeEnd::Return(x), d)),
        ))
        .then_ignore(t(Tok::Semi));
        let ce_block = ident
            .clone()
            .then_ignore(t(Tok::Colon))
            .then(ce_stmt.repeated().collect::<Vec<_>>())
            .then(ce_end)
            .map_with(|((label, stmts), (end, de)), e| {
                let d = stmts.iter().map(|s| s.1).max().unwrap_or(0).max(de);
                let stmts = stmts.into_iter().map(|s| s.0).collect();
                (CodeBlock { label, stmts, end, span: sp(e.span()) }, d)
            });
        let ce_var = comma_list(ident.clone())
            .then_ignore(t(Tok::Colon))
            .then(ty.clone())
            .then(t(Tok::Where).ignore_then(ce_expr()).or_not())
            .map(|((names, ty), wh)| {
                let d = wh.as_ref().map_or(0, |w| w.1);
                let wh = wh.map(|w| w.0);
                let vars = names.into_iter().map(|name| TypedIdent {
                    name,
                    ty: ty.clone(),
                    where_clause: wh.clone(),
                    attrs: Vec::new(),
                });
                (vars.collect::<Vec<_>>(), d)
            });
        let ce_local =
            t(Tok::Var).ignore_then(ce_attrs.clone()).then(comma_list(ce_var)).then_ignore(t(Tok::Semi)).map(
                |((attrs, da), groups)| {
                    let d = groups.iter().map(|g| g.1).max().unwrap_or(0).max(da);
                    (VarDecl { attrs, vars: groups.into_iter().flat_map(|g| g.0).collect() }, d)
                },
            );
        let code_expr = t(Tok::Bar)
            .then(t(Tok::LBrace))
            .ignore_then(ce_local.repeated().collect::<Vec<_>>())
            .then(ce_block.repeated().at_least(1).collect::<Vec<_>>())
            .then_ignore(t(Tok::RBrace).then(t(Tok::Bar)))
            .map_with(|(locals, blocks), e| {
                let d = locals.iter().map(|l| l.1).chain(blocks.iter().map(|b| b.1)).max().unwrap_or(0);
                let locals = locals.into_iter().map(|l| l.0).collect();
                let blocks = blocks.into_iter().map(|b| b.0).collect();
                node(ExprKind::Code(Box::new(CodeExpr { locals, blocks })), sp(e.span()), d)
            });
        let atom = choice((literal, var_or_call, paren, old, coercion_fn, ite, code_expr));

        // Postfix: `m[i, j]`, `m[i := v]`, `e[hi:lo]`.
        let u32_lit = select! {
            Tok::SmallInt(v) => Some(v),
            Tok::Int(i) = e => name_of(e, i).parse::<u32>().ok(),
        };
        let suffix = t(Tok::LBracket)
            .ignore_then(choice((
                u32_lit
                    .then_ignore(t(Tok::Colon))
                    .then(u32_lit)
                    .then_ignore(t(Tok::RBracket))
                    .map(|(hi, lo)| Suffix::Extract(hi, lo)),
                exprs0
                    .clone()
                    .then(t(Tok::Assign).ignore_then(expr.clone()).or_not())
                    .then_ignore(t(Tok::RBracket))
                    .map(|(idx, v)| match v {
                        None => Suffix::Select(idx),
                        Some(v) => Suffix::Store(idx, v),
                    }),
            )))
            .validate(|s, e, emitter| {
                if let Suffix::Extract(None, _) | Suffix::Extract(_, None) = s {
                    emitter.emit(E::custom(e.span(), ErrorKind::Syntax, "bit-vector extraction bounds are too large"));
                }
                (s, sp(e.span()))
            });
        let postfix = atom.clone().foldl(suffix.clone().repeated(), apply_suffix);
        // Coercion `e : T`.
        let coerce = postfix.foldl(t(Tok::Colon).ignore_then(ty.clone()).repeated(), |(a, d), ty| {
            let span = a.span.to(ty.span);
            node(ExprKind::Coerce(Box::new(a), Box::new(ty)), span, d)
        });
        // Unary `!` and `-`.
        let unop = select! { Tok::Not => UnOp::Not, Tok::Minus => UnOp::Neg }.map_with(|op, e| (op, sp(e.span())));
        let unary = unop.repeated().foldr(coerce, |(op, s), (a, d)| {
            let span = s.to(a.span);
            node(ExprKind::Unary(op, Box::new(a)), span, d)
        });
        // All binary operators in one loop; `resolve` builds the tree by Boogie's precedence.
        let binop = select! { tok if binop_of(tok).is_some() => binop_of(tok).expect("a binary operator") }
            .map_with(|op, e| (op, e.span()));
        let binary = unary
            .clone()
            .then(binop.then(unary.labelled("expression")).repeated().collect::<Vec<_>>())
            .validate(|(first, rest), _, emitter| {
                if rest.is_empty() {
                    return first;
                }
                let mut report = |s: SS, msg: &str| emitter.emit(E::custom(s, ErrorKind::Syntax, msg));
                resolve(first, rest, &mut report)
            });
        if !E::FAST_PATH {
            return nested(binary.labelled("expression")).boxed();
        }
        let parts = FastParts {
            atom: atom.boxed(),
            suffix: suffix.boxed(),
            colon_ty: t(Tok::Colon).ignore_then(ty.clone()).boxed(),
        };
        fast_expr(parts).boxed()
    })
}
