//! The grammar of declarations (types, constants, functions, axioms, variables, procedures,
//! implementations, kernels) and [`build`], which assembles the whole grammar from its parts.
//!
//! Separate because it is the top of the grammar: it builds the type, expression and
//! statement parsers and gives them to one another.

use super::exprs::*;
use super::stmts::*;
use super::tokens::*;
use super::types::*;
use crate::ast::*;
use crate::diag::ErrorKind;
use crate::lexer::Tok;
use crate::parser::{sp, PErr, MAX_EXPR_DEPTH, SS};
use chumsky::prelude::*;

/// The parsers the driver runs (each ends with end of input).
pub(crate) struct Grammar<E: PErr> {
    /// One declaration's text; several only for `type A, B;`.
    pub(crate) decl: B<Vec<Decl>, E>,
    pub(crate) expr: B<Expr, E>,
    pub(crate) ty: B<Type, E>,
    /// A run of body-level statements (a piece of a large body).
    pub(crate) stmts: B<Vec<Stmt>, E>,
}

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
