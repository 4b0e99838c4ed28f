//! Property test: random expressions, statements and declarations print as text that parses
//! back to the same tree (ignoring spans).

use ivl::ast::*;
use ivl::parser::parse_program;
use ivl::printer::{print_expr, print_program};
use ivl::visit::strip_spans;
use proptest::prelude::*;

const D: Span = Span::DUMMY;

fn ident() -> impl Strategy<Value = Ident> {
    // Includes keywords and contextual keywords, which the printer must escape.
    prop::sample::select(vec!["x", "y", "m", "$p", "v0$1", "a.b", "old", "true", "vec", "barrier", "int", "then"])
        .prop_map(|n| Ident::new(n, D))
}

fn label() -> impl Strategy<Value = Ident> {
    prop::sample::select(vec!["L1", "L2", "exit", "$bb0"]).prop_map(|n| Ident::new(n, D))
}

fn ty() -> impl Strategy<Value = Type> {
    let leaf = prop_oneof![
        Just(TypeKind::Bool),
        Just(TypeKind::Int),
        Just(TypeKind::Real),
        (1u32..=64).prop_map(TypeKind::Bv),
        prop::sample::select(vec!["T", "U"]).prop_map(|n| TypeKind::Named(Ident::new(n, D), vec![])),
    ]
    .prop_map(|k| Type::new(k, D));
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 1..3), inner.clone())
                .prop_map(|(args, r)| Type::new(TypeKind::Map { type_params: vec![], args, result: Box::new(r) }, D)),
            prop::collection::vec(inner, 1..3).prop_map(|args| Type::new(TypeKind::Named(Ident::new("C", D), args), D)),
        ]
    })
}

fn binop() -> impl Strategy<Value = BinOp> {
    use BinOp::*;
    prop::sample::select(vec![
        Iff, Implies, Explies, Or, And, Eq, Neq, Lt, Le, Gt, Ge, Concat, Add, Sub, Mul, Div, Mod, RealDiv, Pow,
    ])
}

fn attr(e: BoxedStrategy<Expr>) -> impl Strategy<Value = Attribute> {
    let arg = prop_oneof![
        e.prop_map(AttrArg::Expr),
        prop::sample::select(vec!["bvadd", "a b", "x\\\"y"]).prop_map(|s| AttrArg::String(s.into(), D)),
    ];
    (prop::sample::select(vec!["inline", "candidate", "sourceloc_num"]), prop::collection::vec(arg, 0..3))
        .prop_map(|(n, args)| Attribute { name: Ident::new(n, D), args, span: D })
}

fn typed_ident(e: Option<BoxedStrategy<Expr>>) -> impl Strategy<Value = TypedIdent> {
    let w = match e {
        Some(e) => prop::option::of(e).boxed(),
        None => Just(None).boxed(),
    };
    (ident(), ty(), w).prop_map(|(name, ty, where_clause)| TypedIdent { name, ty, where_clause, attrs: vec![] })
}

fn expr() -> BoxedStrategy<Expr> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(ExprKind::BoolLit),
        any::<u64>().prop_map(|n| ExprKind::IntLit(n.into())),
        any::<u128>().prop_map(|n| ExprKind::IntLit(n.into())),
        prop::sample::select(vec!["1.5", "0.0", "2e3", "2.0e-3"]).prop_map(|r| ExprKind::RealLit(r.into())),
        (any::<u32>(), 1u32..=64).prop_map(|(v, w)| ExprKind::BvLit { value: v.into(), width: w }),
        ident().prop_map(ExprKind::Var),
    ]
    .prop_map(|k| Expr::new(k, D));
    leaf.prop_recursive(5, 48, 4, |inner| {
        let b = |e: Expr| Box::new(e);
        prop_oneof![
            (prop::sample::select(vec![UnOp::Not, UnOp::Neg]), inner.clone())
                .prop_map(move |(op, e)| Expr::new(ExprKind::Unary(op, b(e)), D)),
            (binop(), inner.clone(), inner.clone()).prop_map(|(op, x, y)| Expr::binary(op, x, y)),
            (binop(), inner.clone(), inner.clone()).prop_map(|(op, x, y)| Expr::binary(op, x, y)),
            inner.clone().prop_map(|e| Expr::new(ExprKind::Old(Box::new(e)), D)),
            (ident(), prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(f, args)| Expr::new(ExprKind::Call(f, args), D)),
            (inner.clone(), prop::collection::vec(inner.clone(), 1..3))
                .prop_map(|(m, i)| Expr::new(ExprKind::Select(Box::new(m), i), D)),
            (inner.clone(), prop::collection::vec(inner.clone(), 1..3), inner.clone())
                .prop_map(|(m, i, v)| Expr::new(ExprKind::Store(Box::new(m), i, Box::new(v)), D)),
            (inner.clone(), 0u32..64, 0u32..64)
                .prop_map(|(e, hi, lo)| Expr::new(ExprKind::Extract(Box::new(e), hi, lo), D)),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, x, y)| Expr::ite(c, x, y)),
            (inner.clone(), ty()).prop_map(|(e, t)| Expr::new(ExprKind::Coerce(Box::new(e), Box::new(t)), D)),
            quantifier(inner),
        ]
    })
    .boxed()
}

fn quantifier(inner: BoxedStrategy<Expr>) -> impl Strategy<Value = Expr> {
    (
        prop::sample::select(vec![QuantKind::Forall, QuantKind::Exists, QuantKind::Lambda]),
        prop::collection::vec(typed_ident(None), 1..3),
        prop::collection::vec(attr(inner.clone()), 0..2),
        prop::collection::vec(prop::collection::vec(inner.clone(), 1..3), 0..2),
        inner,
    )
        .prop_map(|(kind, vars, attrs, triggers, body)| {
            // Boogie allows no triggers on a lambda.
            let triggers = match kind {
                QuantKind::Lambda => vec![],
                _ => triggers.into_iter().map(|exprs| Trigger { exprs, span: D }).collect(),
            };
            let q = Quantifier { kind, type_params: vec![], vars, attrs, triggers, body };
            Expr::new(ExprKind::Quant(Box::new(q)), D)
        })
}

fn lhs() -> impl Strategy<Value = Lhs> {
    (ident(), prop::collection::vec(prop::collection::vec(expr(), 1..3), 0..3)).prop_map(|(var, indices)| Lhs {
        var,
        indices,
        span: D,
    })
}

fn assignment() -> impl Strategy<Value = (Vec<Lhs>, Vec<Expr>)> {
    (1usize..3).prop_flat_map(|n| (prop::collection::vec(lhs(), n), prop::collection::vec(expr(), n)))
}

fn simple_stmt() -> impl Strategy<Value = StmtKind> {
    let attrs = || prop::collection::vec(attr(expr()), 0..2);
    prop_oneof![
        assignment().prop_map(|(lhss, rhss)| StmtKind::Assign { lhss, rhss }),
        prop::collection::vec(ident(), 1..3).prop_map(StmtKind::Havoc),
        (attrs(), expr()).prop_map(|(attrs, expr)| StmtKind::Assert { attrs, expr }),
        (attrs(), expr()).prop_map(|(attrs, expr)| StmtKind::Assume { attrs, expr }),
        (attrs(), prop::collection::vec(ident(), 0..3), ident(), prop::collection::vec(expr(), 0..3))
            .prop_map(|(attrs, outs, proc, args)| StmtKind::Call { attrs, outs, proc, args }),
        prop::collection::vec(label(), 1..3).prop_map(StmtKind::Goto),
        Just(StmtKind::Return),
        prop::option::of(label()).prop_map(StmtKind::Break),
        (
            prop::collection::vec(attr(expr()), 0..2),
            prop::collection::vec(
                (prop::collection::vec(attr(expr()), 0..2), expr()).prop_map(|(attrs, expr)| BarrierInvariant {
                    attrs,
                    expr,
                    span: D
                }),
                0..3
            )
        )
            .prop_map(|(attrs, invariants)| StmtKind::Barrier { attrs, invariants }),
        assignment().prop_map(|(lhss, rhss)| StmtKind::Vector(VectorStmt::Assign { lhss, rhss })),
        prop::collection::vec(ident(), 1..3).prop_map(|xs| StmtKind::Vector(VectorStmt::Havoc(xs))),
        (lhs(), expr()).prop_map(|(lhs, rhs)| StmtKind::Vector(VectorStmt::Psi { lhs, rhs })),
        expr().prop_map(|e| StmtKind::Vector(VectorStmt::Assume(e))),
        expr().prop_map(|e| StmtKind::Vector(VectorStmt::Assert(e))),
    ]
}

fn stmts() -> impl Strategy<Value = Vec<Stmt>> {
    let leaf = prop::collection::vec(
        prop_oneof![
            4 => simple_stmt(),
            1 => label().prop_map(StmtKind::Label),
        ]
        .prop_map(|k| Stmt::new(k, D)),
        0..4,
    );
    leaf.prop_recursive(3, 24, 3, |inner| {
        let structured = prop_oneof![
            (
                prop::option::of(expr()),
                inner.clone(),
                prop::option::of(prop_oneof![
                    inner.clone().prop_map(Else::Block),
                    (prop::option::of(expr()), inner.clone()).prop_map(|(cond, then)| Else::If(Box::new(Stmt::new(
                        StmtKind::If { cond, then, els: None },
                        D
                    )))),
                ])
            )
                .prop_map(|(cond, then, els)| StmtKind::If { cond, then, els }),
            (
                prop::option::of(expr()),
                prop::collection::vec(
                    (any::<bool>(), prop::collection::vec(attr(expr()), 0..2), expr())
                        .prop_map(|(free, attrs, expr)| Invariant { free, attrs, expr, span: D }),
                    0..3
                ),
                inner.clone()
            )
                .prop_map(|(cond, invariants, body)| StmtKind::While { cond, invariants, body }),
            inner.clone().prop_map(StmtKind::Block),
        ]
        .prop_map(|k| Stmt::new(k, D));
        (inner, structured, prop::collection::vec(simple_stmt().prop_map(|k| Stmt::new(k, D)), 0..2)).prop_map(
            |(mut a, s, b)| {
                a.push(s);
                a.extend(b);
                a
            },
        )
    })
}

fn attrs() -> impl Strategy<Value = Vec<Attribute>> {
    prop::collection::vec(attr(expr()), 0..2)
}

fn typed_idents() -> impl Strategy<Value = Vec<TypedIdent>> {
    prop::collection::vec(typed_ident(Some(expr())), 0..3)
}

fn plain_idents() -> impl Strategy<Value = Vec<TypedIdent>> {
    prop::collection::vec(typed_ident(None), 0..3)
}

fn body() -> impl Strategy<Value = Body> {
    let var_decl = (attrs(), prop::collection::vec(typed_ident(Some(expr())), 1..3))
        .prop_map(|(attrs, vars)| VarDecl { attrs, vars });
    (prop::collection::vec(var_decl, 0..2), stmts()).prop_map(|(locals, stmts)| Body { locals, stmts, span: D })
}

fn decl() -> impl Strategy<Value = Decl> {
    let fn_param = |named: bool| (ident(), ty()).prop_map(move |(n, ty)| FnParam { name: named.then_some(n), ty });
    let contract = (any::<bool>(), any::<bool>(), attrs(), expr()).prop_map(|(ens, free, attrs, expr)| Contract {
        kind: if ens { SpecKind::Ensures } else { SpecKind::Requires },
        free,
        attrs,
        expr,
        span: D,
    });
    prop_oneof![
        (attrs(), any::<bool>(), ident(), prop::collection::vec(ident(), 0..3), prop::option::of(ty())).prop_map(
            |(attrs, finite, name, params, synonym)| {
                let finite = finite && synonym.is_none();
                DeclKind::Type(TypeDecl { attrs, finite, name, params, synonym })
            }
        ),
        (attrs(), any::<bool>(), prop::collection::vec(ident(), 1..3), ty()).prop_map(|(attrs, unique, names, ty)| {
            DeclKind::Const(ConstDecl { attrs, unique, names, ty, order_spec: None })
        }),
        (attrs(), ident(), any::<bool>(), any::<bool>(), prop::option::of(expr())).prop_flat_map(
            move |(attrs, name, named, result_named, body)| {
                (prop::collection::vec(fn_param(named), 0..3), fn_param(result_named)).prop_map(
                    move |(params, result)| {
                        DeclKind::Function(FunctionDecl {
                            attrs: attrs.clone(),
                            name: name.clone(),
                            type_params: vec![],
                            params,
                            result,
                            body: body.clone(),
                        })
                    },
                )
            }
        ),
        (attrs(), expr()).prop_map(|(attrs, expr)| DeclKind::Axiom(AxiomDecl { attrs, expr })),
        (
            attrs(),
            ident(),
            typed_idents(),
            typed_idents(),
            prop::collection::vec(contract, 0..3),
            prop::collection::vec(ident(), 0..3),
            prop::option::of(body())
        )
            .prop_map(|(attrs, name, ins, outs, contracts, modifies, body)| {
                DeclKind::Procedure(ProcedureDecl {
                    attrs,
                    name,
                    type_params: vec![],
                    ins,
                    outs,
                    contracts,
                    modifies,
                    body,
                })
            }),
        // Boogie forbids `where` on an implementation's formals.
        (attrs(), ident(), plain_idents(), plain_idents(), body()).prop_map(|(attrs, name, ins, outs, body)| {
            DeclKind::Implementation(ImplementationDecl { attrs, name, type_params: vec![], ins, outs, body })
        }),
    ]
    .prop_map(|kind| Decl { kind, span: D })
}

fn in_procedure(stmts: Vec<Stmt>) -> Program {
    let body = Body { locals: vec![], stmts, span: D };
    let p = ProcedureDecl {
        attrs: vec![],
        name: Ident::new("P", D),
        type_params: vec![],
        ins: vec![],
        outs: vec![],
        contracts: vec![],
        modifies: vec![],
        body: Some(body),
    };
    Program { decls: vec![Decl { kind: DeclKind::Procedure(p), span: D }] }
}

fn check_round_trip(p: &Program) -> Result<(), TestCaseError> {
    let text = print_program(p);
    let (mut back, diags) = parse_program(&text);
    prop_assert!(diags.is_empty(), "printed text does not parse: {:?}\n{}", diags, text);
    strip_spans(&mut back);
    prop_assert_eq!(&back, p, "printed:\n{}", text);
    Ok(())
}

fn axiom(e: Expr) -> Program {
    Program { decls: vec![Decl { kind: DeclKind::Axiom(AxiomDecl { attrs: vec![], expr: e }), span: D }] }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn expressions_round_trip(e in expr()) {
        check_round_trip(&axiom(e.clone()))?;
        // And inside a binary operator and under a unary one, where parentheses matter most.
        let x = Expr::var("x", D);
        check_round_trip(&axiom(Expr::binary(BinOp::Sub, e.clone(), x.clone())))?;
        check_round_trip(&axiom(Expr::binary(BinOp::Implies, x, e.clone())))?;
        let neg = Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(e.clone())), D);
        check_round_trip(&axiom(neg))?;
        prop_assert!(!print_expr(&e).contains("--"));
    }

    #[test]
    fn statements_round_trip(ss in stmts()) {
        check_round_trip(&in_procedure(ss))?;
    }

    #[test]
    fn declarations_round_trip(decls in prop::collection::vec(decl(), 1..4)) {
        check_round_trip(&Program { decls })?;
    }

    #[test]
    fn variable_declarations_round_trip(vars in prop::collection::vec(typed_ident(Some(expr())), 1..4)) {
        let d = Decl { kind: DeclKind::Var(VarDecl { attrs: vec![], vars }), span: D };
        check_round_trip(&Program { decls: vec![d] })?;
    }
}
