//! Small constructors for the expressions and statements the two-thread passes build.

use ivl::ast::*;
use ivl::diag::Diagnostic;

pub(crate) fn var(n: &Name) -> Expr {
    Expr::var(n.clone(), Span::DUMMY)
}

pub(crate) fn int(v: u64) -> Expr {
    Expr::new(ExprKind::IntLit(v.into()), Span::DUMMY)
}

pub(crate) fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}

pub(crate) fn neq(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Neq, a, b)
}

/// `a && b`, dropping `true` operands.
pub(crate) fn and(a: Expr, b: Expr) -> Expr {
    if a.is_true() {
        b
    } else if b.is_true() {
        a
    } else {
        Expr::and(a, b)
    }
}

/// `a ==> b`, dropping a `true` antecedent.
pub(crate) fn implies(a: Expr, b: Expr) -> Expr {
    if a.is_true() {
        b
    } else {
        Expr::implies(a, b)
    }
}

pub(crate) fn all(es: impl IntoIterator<Item = Expr>) -> Expr {
    es.into_iter().fold(Expr::bool(true), and)
}

pub(crate) fn select(m: Expr, idx: Vec<Expr>) -> Expr {
    let span = m.span;
    Expr::new(ExprKind::Select(Box::new(m), idx), span)
}

/// A literal of type `ty` (`int` or `bvN`).
pub(crate) fn lit_of(ty: &Type, v: u64) -> Result<Expr, Diagnostic> {
    match ty.kind {
        TypeKind::Int => Ok(int(v)),
        TypeKind::Bv(w) => {
            if w < 64 && v >> w != 0 {
                return Err(Diagnostic::unsupported(format!("{v} does not fit in bv{w}"), ty.span));
            }
            Ok(Expr::new(ExprKind::BvLit { value: v.into(), width: w }, Span::DUMMY))
        }
        _ => Err(Diagnostic::unsupported("expected an `int` or bit-vector type", ty.span)),
    }
}

pub(crate) fn attr(name: &str, args: Vec<AttrArg>, span: Span) -> Attribute {
    Attribute { name: Ident::new(name, span), args, span }
}

pub(crate) fn str_arg(s: &str) -> AttrArg {
    AttrArg::String(s.into(), Span::DUMMY)
}

pub(crate) fn assert_stmt(attrs: Vec<Attribute>, e: Expr, span: Span) -> Stmt {
    Stmt::new(StmtKind::Assert { attrs, expr: e }, span)
}

pub(crate) fn assume_stmt(e: Expr, span: Span) -> Stmt {
    Stmt::new(StmtKind::Assume { attrs: vec![], expr: e }, span)
}

pub(crate) fn havoc_stmt(xs: &[Name], span: Span) -> Stmt {
    Stmt::new(StmtKind::Havoc(xs.iter().map(|x| Ident::new(x.clone(), span)).collect()), span)
}

pub(crate) fn lhs(n: &Name, indices: Vec<Vec<Expr>>, span: Span) -> Lhs {
    Lhs { var: Ident::new(n.clone(), span), indices, span }
}

pub(crate) fn assign_stmt(pairs: Vec<(Lhs, Expr)>, span: Span) -> Stmt {
    let (lhss, rhss) = pairs.into_iter().unzip();
    Stmt::new(StmtKind::Assign { lhss, rhss }, span)
}

/// `{:check KIND} {:related_span ..} {:msg MSG}`.
pub(crate) fn check_attrs_msg(kind: &str, related: Option<Span>, msg: &str, span: Span) -> Vec<Attribute> {
    let mut a = ivl::blocks::check_attrs(kind, related);
    a.push(attr("msg", vec![str_arg(msg)], span));
    a
}

/// A map type `[args]result` (just `result` without arguments).
pub(crate) fn map_type(args: &[Type], result: Type) -> Type {
    if args.is_empty() {
        result
    } else {
        Type::new(TypeKind::Map { type_params: vec![], args: args.to_vec(), result: Box::new(result) }, Span::DUMMY)
    }
}

pub(crate) fn var_decl(name: &Name, ty: Type, attrs: Vec<Attribute>) -> Decl {
    Decl {
        kind: DeclKind::Var(VarDecl {
            attrs,
            vars: vec![TypedIdent {
                name: Ident::new(name.clone(), Span::DUMMY),
                ty,
                where_clause: None,
                attrs: vec![],
            }],
        }),
        span: Span::DUMMY,
    }
}
