//! The grammar, as chumsky combinators over [`Tok`]ens. It follows Boogie 2.4.1's
//! `BoogiePL.atg` production by production (precedence, associativity, where attributes may
//! appear, the `VarOrType` rules of function parameters), plus `barrier` and `vec` statements.
//!
//! Expressions are built as `(Expr, depth)` pairs so that the tree depth is known while it is
//! built: a node deeper than [`MAX_EXPR_DEPTH`] is replaced by a shallow placeholder and
//! reported, so no over-deep tree ever exists (dropping one would overflow the stack).
//!
//! **Fast path.** The grammar is built twice (see `parser/mod.rs`): the `EmptyErr` instance
//! parses, and only when it fails does the `Rich` instance parse again to explain. In the
//! `EmptyErr` instance ([`PErr::FAST_PATH`]) the four expression levels `nested(binary)`,
//! `unary`, `coerce` and `postfix` are one `custom` parser, [`fast_expr`], that peeks at the
//! next token instead of running (and rewinding) a combinator per level; the common atoms
//! (variables, calls, small literals, parentheses, `if`) and `[..]` selections and updates are
//! chosen by their first token ([`fast_atom`], [`fast_suffix`]), and so are the common simple
//! statements (`assume`, `assert`, `call`, assignments: [`fast_stmt`]); every rarer form runs
//! the very same declarative sub-parser. It is equal to the declarative grammar, which the
//! `Rich` instance keeps, because each loop is the combinator it replaces, step by step:
//! `unop*` consumes exactly the `!`/`-` tokens `select!` would; `suffix*`, `(: type)*` and
//! `(binop unary)*` try one more item only when its first token is there (otherwise the item's
//! parser fails on that token without consuming anything) and rewind it on failure, as
//! `repeated` does; a `choice` whose alternatives all start with different tokens is decided
//! by the next token, so taking the matching alternative directly changes nothing; the folds
//! build the same nodes with the same spans and depths; the binary operators go through the
//! same [`resolve`], whose complaints are emitted; the nesting depth is entered and left as by
//! `enter`/`exit` (and restored by rewinds alike). Labels only matter for `Rich` errors. The
//! instances therefore accept the same inputs with the same ASTs; `tests/parser_fast_path.rs`
//! checks this on the corpus and on mutated tricky inputs.

use super::{sp, PErr, PState, TokInput, MAX_EXPR_DEPTH, MAX_NESTING, SS};
use crate::ast::*;
use crate::diag::ErrorKind;
use crate::lexer::Tok;
use chumsky::extra::Full;
use chumsky::prelude::*;
use num_bigint::BigUint;
use smol_str::SmolStr;

pub(crate) type Ex<E> = Full<E, PState, ()>;
type B<O, E> = Boxed<'static, 'static, TokInput, O, Ex<E>>;

/// Shorthand for "a parser of `O`".
pub(crate) trait P<O, E: PErr>: Parser<'static, TokInput, O, Ex<E>> + Clone + 'static {}
impl<T, O, E: PErr> P<O, E> for T where T: Parser<'static, TokInput, O, Ex<E>> + Clone + 'static {}

/// The parsers the driver runs (each ends with end of input).
pub(crate) struct Grammar<E: PErr> {
    /// One declaration's text; several only for `type A, B;`.
    pub(crate) decl: B<Vec<Decl>, E>,
    pub(crate) expr: B<Expr, E>,
    pub(crate) ty: B<Type, E>,
    /// A run of body-level statements (a piece of a large body).
    pub(crate) stmts: B<Vec<Stmt>, E>,
}

/// An expression and the depth of its tree.
type PE = (Expr, u32);
const POISON: u32 = u32::MAX;

type Inp<'p, E> = chumsky::input::InputRef<'static, 'p, TokInput, Ex<E>>;
type Extra<'b, E> = chumsky::input::MapExtra<'static, 'b, TokInput, Ex<E>>;

/// The text of an identifier or literal token.
fn name_of<E: PErr>(e: &mut Extra<'_, E>, i: u32) -> SmolStr {
    e.state().names[i as usize].clone()
}

fn t<E: PErr>(tok: Tok) -> impl P<Tok, E> {
    just(tok)
}

fn big(digits: &str) -> BigUint {
    if digits.len() <= 19 {
        if let Ok(v) = digits.parse::<u64>() {
            return BigUint::from(v);
        }
    }
    BigUint::parse_bytes(digits.as_bytes(), 10).unwrap_or_default()
}

/// A node over children of depth `child_depth`; a placeholder once too deep.
fn node(kind: ExprKind, span: Span, child_depth: u32) -> PE {
    if child_depth >= MAX_EXPR_DEPTH {
        (Expr::new(ExprKind::BoolLit(false), span), POISON)
    } else {
        (Expr::new(kind, span), child_depth + 1)
    }
}

/// Expressions collected with the depth of the deepest.
#[derive(Default)]
struct Args {
    exprs: Vec<Expr>,
    depth: u32,
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

fn bin(a: PE, (op, b): (BinOp, PE)) -> PE {
    let span = a.0.span.to(b.0.span);
    let d = a.1.max(b.1);
    node(ExprKind::Binary(op, Box::new(a.0), Box::new(b.0)), span, d)
}

/// Enters one level of nesting, or fails with "nesting too deep".
fn enter<E: PErr>() -> impl P<(), E> {
    custom(|inp: &mut Inp<'_, E>| enter_level(inp))
}

/// The step of [`enter`], for hand-written parsers.
fn enter_level<E: PErr>(inp: &mut Inp<'_, E>) -> Result<(), E> {
    let before = inp.cursor();
    if inp.state().depth >= MAX_NESTING {
        let span = inp.span_since(&before);
        return Err(E::custom(span, ErrorKind::Syntax, &format!("nesting too deep (more than {MAX_NESTING} levels)")));
    }
    inp.state().depth += 1;
    Ok(())
}

fn exit<E: PErr>() -> impl P<(), E> {
    custom(|inp: &mut Inp<'_, E>| {
        let st = inp.state();
        st.depth = st.depth.saturating_sub(1);
        Ok(())
    })
}

/// `inner`, counted as one level of nesting.
fn nested<O: 'static, E: PErr>(inner: impl P<O, E>) -> impl P<O, E> {
    enter().ignore_then(inner).then_ignore(exit())
}

/// An identifier (the contextual keywords included), labelled for messages.
fn ident_p<E: PErr>() -> impl P<Ident, E> {
    ident_unlabelled().labelled("identifier")
}

/// An identifier, for positions whose enclosing parser has a label already (expressions).
fn ident_unlabelled<E: PErr>() -> impl P<Ident, E> {
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

fn comma_list<O: 'static, E: PErr>(p: impl P<O, E>) -> impl P<Vec<O>, E> {
    p.separated_by(t(Tok::Comma)).at_least(1).collect::<Vec<_>>()
}

/// `bvN` written as a type name.
fn bv_width(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("bv")?;
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn named_type(id: Ident, args: Vec<Type>, span: Span) -> Type {
    if args.is_empty() {
        if let Some(w) = bv_width(id.as_str()) {
            return Type::new(TypeKind::Bv(w), span);
        }
    }
    Type::new(TypeKind::Named(id, args), span)
}

/// The name a type denotes when it was written as a bare identifier (`x`, `bv32`).
fn bare_name(ty: &Type) -> Option<Ident> {
    match &ty.kind {
        TypeKind::Named(id, args) if args.is_empty() => Some(id.clone()),
        TypeKind::Bv(w) => Some(Ident::new(format!("bv{w}"), ty.span)),
        _ => None,
    }
}

fn type_params<E: PErr>(ident: impl P<Ident, E>) -> impl P<Vec<Ident>, E> {
    comma_list(ident).delimited_by(t(Tok::Lt), t(Tok::Gt))
}

fn type_parser<E: PErr>(ident: B<Ident, E>) -> impl P<Type, E> {
    recursive(move |ty| {
        let basic = select! {
            Tok::Int_ => TypeKind::Int,
            Tok::Bool => TypeKind::Bool,
            Tok::Real_ => TypeKind::Real,
        }
        .map_with(|k, e| Type::new(k, sp(e.span())));
        let paren = ty.clone().delimited_by(t(Tok::LParen), t(Tok::RParen)).map_with(|mut x: Type, e| {
            x.span = sp(e.span());
            x
        });
        let atom = basic.or(paren);
        let map = type_params(ident.clone())
            .or_not()
            .then(
                ty.clone()
                    .separated_by(t(Tok::Comma))
                    .collect::<Vec<_>>()
                    .delimited_by(t(Tok::LBracket), t(Tok::RBracket)),
            )
            .then(ty.clone())
            .map_with(|((tps, args), result), e| {
                Type::new(
                    TypeKind::Map { type_params: tps.unwrap_or_default(), args, result: Box::new(result) },
                    sp(e.span()),
                )
            });
        let arg = choice((
            atom.clone(),
            ident.clone().map(|id| {
                let s = id.span;
                named_type(id, vec![], s)
            }),
            map.clone(),
        ));
        let named = ident
            .clone()
            .then(arg.repeated().collect::<Vec<_>>())
            .map_with(|(id, args), e| named_type(id, args, sp(e.span())));
        nested(choice((atom, named, map)).labelled("type"))
    })
}

enum AttrOrTrigger {
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
fn attr_or_trigger_pe<E: PErr>(ident: B<Ident, E>, expr: impl P<PE, E>) -> impl P<(AttrOrTrigger, u32), E> {
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
fn checked<E: PErr>(p: impl P<PE, E>) -> impl P<Expr, E> {
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

enum Suffix {
    Select(Args),
    Store(Args, PE),
    Extract(Option<u32>, Option<u32>),
}

fn expr_parser<E: PErr>(ident: B<Ident, E>, ty: B<Type, E>) -> impl P<PE, E> {
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

/// `a[..]`, `a[.. := v]` or `a[hi:lo]`: a postfix suffix applied to the expression before it.
fn apply_suffix((a, da): PE, (s, s_span): (Suffix, Span)) -> PE {
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
fn binop_of(tok: Tok) -> Option<BinOp> {
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

/// The sub-parsers of the declarative grammar the fast path runs, or falls back on for the
/// rarer forms.
struct FastParts<E: PErr> {
    atom: B<PE, E>,
    suffix: B<(Suffix, Span), E>,
    colon_ty: B<Type, E>,
}

impl<E: PErr> Clone for FastParts<E> {
    fn clone(&self) -> Self {
        FastParts { atom: self.atom.clone(), suffix: self.suffix.clone(), colon_ty: self.colon_ty.clone() }
    }
}

/// Consumes `tok` or fails without consuming.
fn fast_token<E: PErr>(inp: &mut Inp<'_, E>, tok: Tok) -> Result<(), E> {
    if inp.peek() == Some(tok) {
        inp.next();
        Ok(())
    } else {
        let here = inp.cursor();
        Err(E::custom(inp.span_since(&here), ErrorKind::Syntax, "unexpected token"))
    }
}

/// The token after the next one.
fn peek_second<E: PErr>(inp: &mut Inp<'_, E>) -> Option<Tok> {
    let save = inp.save();
    inp.next();
    let tok = inp.peek();
    inp.rewind(save);
    tok
}

/// `items` up to `close` (not consumed): `item` separated by commas, possibly none, as
/// `separated_by` parses them: when the first item fails the list is empty (and nothing of it
/// consumed), and a comma must be followed by an item.
fn fast_items<T, E: PErr>(
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
fn fast_atom<E: PErr>(inp: &mut Inp<'_, E>, p: &FastParts<E>) -> Result<PE, E> {
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
fn fast_suffix<E: PErr>(inp: &mut Inp<'_, E>, p: &FastParts<E>) -> Result<(Suffix, Span), E> {
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
fn fast_expr<E: PErr>(p: FastParts<E>) -> impl P<PE, E> {
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
fn resolve(first: PE, rest: Vec<((BinOp, SS), PE)>, report: &mut dyn FnMut(SS, &str)) -> PE {
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

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

struct StmtParts<E: PErr> {
    ident: B<Ident, E>,
    expr: B<Expr, E>,
    /// `expr` with its depth (for the fast path's attributes).
    expr_pe: B<PE, E>,
    attrs: B<Vec<Attribute>, E>,
}

fn stmt_parser<E: PErr>(p: &StmtParts<E>) -> impl P<Stmt, E> {
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

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

enum Spec {
    Contract(Contract),
    Modifies(Vec<Ident>),
}

/// A function parameter as written: `{:attrs} T` or `{:attrs} x: T`.
fn fixup_fn_params<E: PErr>(params: &mut [FnParam], emitter: &mut chumsky::input::Emitter<E>) {
    // Boogie: if any parameter is named, unnamed ones written as a bare identifier name a
    // parameter of the type of the next named one (`f(x, y: int)`).
    if params.iter().all(|p| p.name.is_none()) {
        return;
    }
    let mut prev: Option<Type> = None;
    for p in params.iter_mut().rev() {
        if p.name.is_some() {
            prev = Some(p.ty.clone());
            continue;
        }
        let Some(pt) = &prev else {
            emitter.emit(E::custom(
                (p.ty.span.start as usize..p.ty.span.end as usize).into(),
                ErrorKind::Syntax,
                "the type of the last parameter is unspecified",
            ));
            return;
        };
        match bare_name(&p.ty) {
            Some(n) => {
                p.name = Some(n);
                p.ty = pt.clone();
            }
            None => emitter.emit(E::custom(
                (p.ty.span.start as usize..p.ty.span.end as usize).into(),
                ErrorKind::Syntax,
                "expecting an identifier as parameter name",
            )),
        }
    }
}

pub(crate) fn build<E: PErr>() -> Grammar<E> {
    let ident: B<Ident, E> = ident_p::<E>().boxed();
    let ty: B<Type, E> = type_parser::<E>(ident.clone()).boxed();
    let expr_pe: B<PE, E> = expr_parser::<E>(ident.clone(), ty.clone()).boxed();
    let expr: B<Expr, E> = checked(expr_pe.clone()).boxed();
    // Attributes outside quantifiers; a trigger there is an error (as in Boogie).
    let attr = attr_or_trigger_pe(ident.clone(), expr_pe.clone()).validate(|(a, d), _, emitter| {
        let span = match &a {
            AttrOrTrigger::Attr(a) => a.span,
            AttrOrTrigger::Trigger(t) => t.span,
        };
        let ss: SS = (span.start as usize..span.end as usize).into();
        if d == POISON {
            emitter.emit(E::custom(
                ss,
                ErrorKind::Syntax,
                &format!("expression nested too deeply (more than {MAX_EXPR_DEPTH} levels)"),
            ));
        }
        match a {
            AttrOrTrigger::Attr(a) => a,
            AttrOrTrigger::Trigger(_) => {
                emitter.emit(E::custom(ss, ErrorKind::Syntax, "only attributes, not triggers, allowed here"));
                Attribute { name: Ident::new("trigger", span), args: Vec::new(), span }
            }
        }
    });
    let attrs: B<Vec<Attribute>, E> = attr.repeated().collect::<Vec<_>>().boxed();
    let stmt = stmt_parser(&StmtParts {
        ident: ident.clone(),
        expr: expr.clone(),
        expr_pe: expr_pe.clone(),
        attrs: attrs.clone(),
    })
    .boxed();
    let semi = || t::<E>(Tok::Semi);
    let idents1 = comma_list(ident.clone()).boxed();

    // `x, y: T where e`
    let ids_type_where = comma_list(ident.clone())
        .then_ignore(t(Tok::Colon))
        .then(ty.clone())
        .then(t(Tok::Where).ignore_then(expr.clone()).or_not())
        .map(|((names, ty), wh)| {
            names
                .into_iter()
                .map(|name| TypedIdent { name, ty: ty.clone(), where_clause: wh.clone(), attrs: Vec::new() })
                .collect::<Vec<_>>()
        })
        .boxed();
    let ids_type_wheres = comma_list(ids_type_where.clone()).map(|gs| gs.into_iter().flatten().collect::<Vec<_>>());
    let formals = comma_list(attrs.clone().then(ids_type_where.clone()).map(|(attrs, mut vs)| {
        for v in &mut vs {
            v.attrs = attrs.clone();
        }
        vs
    }))
    .or_not()
    .delimited_by(t(Tok::LParen), t(Tok::RParen))
    .map(|gs| gs.unwrap_or_default().into_iter().flatten().collect::<Vec<_>>())
    .boxed();
    let tparams = type_params(ident.clone()).or_not().map(Option::unwrap_or_default).boxed();
    let signature = attrs
        .clone()
        .then(ident.clone())
        .then(tparams.clone())
        .then(formals.clone())
        .then(t(Tok::Returns).ignore_then(formals.clone()).or_not().map(Option::unwrap_or_default))
        .boxed();

    let local_vars = t(Tok::Var)
        .ignore_then(attrs.clone())
        .then(ids_type_wheres.clone())
        .then_ignore(semi())
        .map(|(attrs, vars)| VarDecl { attrs, vars });
    let stmts = stmt.repeated().collect::<Vec<_>>().boxed();
    let body = t(Tok::LBrace)
        .ignore_then(local_vars.repeated().collect::<Vec<_>>())
        .then(stmts.clone())
        .then_ignore(t(Tok::RBrace))
        .map_with(|(locals, stmts), e| Body { locals, stmts, span: sp(e.span()) })
        .boxed();

    // type {:attrs} [finite] T a b [= U];
    let type_item = ident
        .clone()
        .then(ident.clone().repeated().collect::<Vec<_>>())
        .then(t(Tok::EqSign).ignore_then(ty.clone()).or_not());
    let type_decl = t(Tok::Type)
        .ignore_then(attrs.clone())
        .then(t(Tok::Finite).or_not())
        .then(comma_list(type_item))
        .then_ignore(semi())
        .map(|((attrs, finite), items)| {
            // `type A, B;` declares several types: one declaration each, sharing the attributes.
            items
                .into_iter()
                .map(|((name, params), synonym)| {
                    DeclKind::Type(TypeDecl { attrs: attrs.clone(), finite: finite.is_some(), name, params, synonym })
                })
                .collect::<Vec<_>>()
        });

    // const {:attrs} [unique] a, b: T [extends [unique] p, ... [complete]];
    let parent = t(Tok::Unique).or_not().then(ident.clone());
    let order_spec = t(Tok::Extends)
        .then(parent.separated_by(t(Tok::Comma)).collect::<Vec<_>>())
        .then(t(Tok::Complete).or_not())
        .map_with(|_, e| sp(e.span()));
    let const_decl = t(Tok::Const)
        .ignore_then(attrs.clone())
        .then(t(Tok::Unique).or_not())
        .then(idents1.clone())
        .then_ignore(t(Tok::Colon))
        .then(ty.clone())
        .then(order_spec.or_not())
        .then_ignore(semi())
        .map(|((((attrs, unique), names), ty), order_spec)| {
            DeclKind::Const(ConstDecl { attrs, unique: unique.is_some(), names, ty, order_spec })
        });

    // function {:attrs} f<T>(x: int, bool) returns (r: int) { body }  |  ... : T;
    let var_or_type = attrs
        .clone()
        .ignore_then(ty.clone().then(t(Tok::Colon).ignore_then(ty.clone()).or_not()))
        .validate(|(t1, t2), _, emitter| match t2 {
            None => FnParam { name: None, ty: t1 },
            Some(t2) => {
                let name = bare_name(&t1);
                if name.is_none() {
                    emitter.emit(E::custom(
                        (t1.span.start as usize..t1.span.end as usize).into(),
                        ErrorKind::Syntax,
                        "expected identifier before ':'",
                    ));
                }
                FnParam { name, ty: t2 }
            }
        })
        .boxed();
    let function_decl = t(Tok::Function)
        .ignore_then(attrs.clone())
        .then(ident.clone())
        .then(tparams.clone())
        .then(
            var_or_type
                .clone()
                .separated_by(t(Tok::Comma))
                .collect::<Vec<_>>()
                .delimited_by(t(Tok::LParen), t(Tok::RParen)),
        )
        .then(choice((
            t(Tok::Returns).ignore_then(var_or_type.clone().delimited_by(t(Tok::LParen), t(Tok::RParen))),
            t(Tok::Colon).ignore_then(ty.clone()).map(|ty| FnParam { name: None, ty }),
        )))
        .then(choice((expr.clone().delimited_by(t(Tok::LBrace), t(Tok::RBrace)).map(Some), semi().to(None))))
        .validate(|(((((attrs, name), type_params), mut params), result), body), _, emitter| {
            fixup_fn_params(&mut params, emitter);
            DeclKind::Function(FunctionDecl { attrs, name, type_params, params, result, body })
        });

    let axiom_decl = t(Tok::Axiom)
        .ignore_then(attrs.clone())
        .then(expr.clone())
        .then_ignore(semi())
        .map(|(attrs, expr)| DeclKind::Axiom(AxiomDecl { attrs, expr }));
    let var_decl = t(Tok::Var)
        .ignore_then(attrs.clone())
        .then(ids_type_wheres.clone())
        .then_ignore(semi())
        .map(|(attrs, vars)| DeclKind::Var(VarDecl { attrs, vars }));

    // Specifications: [free] requires/ensures {:attrs} e;  [free] modifies x, y;
    let contract = t(Tok::Free)
        .or_not()
        .then(select! { Tok::Requires => SpecKind::Requires, Tok::Ensures => SpecKind::Ensures })
        .then(attrs.clone())
        .then(expr.clone())
        .then_ignore(semi())
        .map_with(|(((free, kind), attrs), expr), e| {
            Spec::Contract(Contract { kind, free: free.is_some(), attrs, expr, span: sp(e.span()) })
        });
    let modifies = t(Tok::Free)
        .or_not()
        .ignore_then(t(Tok::Modifies))
        .ignore_then(ident.clone().separated_by(t(Tok::Comma)).collect::<Vec<_>>())
        .then_ignore(semi())
        .map(Spec::Modifies);
    let spec = choice((contract, modifies)).boxed();
    let specs = spec.repeated().collect::<Vec<_>>().boxed();

    let procedure_decl = t(Tok::Procedure)
        .ignore_then(signature.clone())
        .then(choice((
            semi().ignore_then(specs.clone()).map(|s| (s, None)),
            specs.clone().then(body.clone().map(Some)),
        )))
        .map(|(((((attrs, name), type_params), ins), outs), (specs, body))| {
            let mut contracts = Vec::new();
            let mut modifies = Vec::new();
            for s in specs {
                match s {
                    Spec::Contract(c) => contracts.push(c),
                    Spec::Modifies(m) => modifies.extend(m),
                }
            }
            DeclKind::Procedure(ProcedureDecl { attrs, name, type_params, ins, outs, contracts, modifies, body })
        });
    let implementation_decl = t(Tok::Implementation).ignore_then(signature).then(body).validate(
        |(((((attrs, name), type_params), ins), outs), body), _, emitter| {
            for v in ins.iter().chain(outs.iter()) {
                if let Some(w) = &v.where_clause {
                    emitter.emit(E::custom(
                        (w.span.start as usize..w.span.end as usize).into(),
                        ErrorKind::Syntax,
                        "where clause not allowed on the 'implementation' copies of formals",
                    ));
                }
            }
            DeclKind::Implementation(ImplementationDecl { attrs, name, type_params, ins, outs, body })
        },
    );

    let decl = choice((
        choice((procedure_decl, implementation_decl, var_decl, const_decl, function_decl, axiom_decl)).map(|k| vec![k]),
        type_decl,
    ))
    .labelled("declaration")
    .map_with(|kinds, e| {
        let span = sp(e.span());
        kinds.into_iter().map(|kind| Decl { kind, span }).collect::<Vec<_>>()
    });

    Grammar {
        decl: decl.then_ignore(end()).boxed(),
        expr: expr.then_ignore(end()).boxed(),
        ty: ty.then_ignore(end()).boxed(),
        stmts: stmts.then_ignore(end()).boxed(),
    }
}
