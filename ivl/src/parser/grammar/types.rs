//! The grammar of types: `int`, `bvN`, named types with arguments, map types with type
//! parameters (Boogie 2.4.1's `Type`, `TypeArgs`, `MapType`).
//!
//! Separate because types are read by expressions (coercions, quantifiers), statements
//! (locals) and declarations alike, and need none of them.

use super::tokens::*;
use crate::ast::*;
use crate::lexer::Tok;
use crate::parser::{sp, PErr};
use chumsky::prelude::*;

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
pub(super) fn bare_name(ty: &Type) -> Option<Ident> {
    match &ty.kind {
        TypeKind::Named(id, args) if args.is_empty() => Some(id.clone()),
        TypeKind::Bv(w) => Some(Ident::new(format!("bv{w}"), ty.span)),
        _ => None,
    }
}

pub(super) fn type_params<E: PErr>(ident: impl P<Ident, E>) -> impl P<Vec<Ident>, E> {
    comma_list(ident).delimited_by(t(Tok::Lt), t(Tok::Gt))
}

pub(super) fn type_parser<E: PErr>(ident: B<Ident, E>) -> impl P<Type, E> {
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
