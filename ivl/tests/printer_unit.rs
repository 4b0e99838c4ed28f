//! The printer on hand-built trees: exact text, minimal parentheses, layout.

use ivl::ast::*;
use ivl::printer::{print_decl, print_expr, print_program, print_stmt, print_type};

const D: Span = Span::DUMMY;

fn v(n: &str) -> Expr {
    Expr::var(n, D)
}
fn id(n: &str) -> Ident {
    Ident::new(n, D)
}
fn int(n: u32) -> Expr {
    Expr::new(ExprKind::IntLit(n.into()), D)
}
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}
fn un(op: UnOp, a: Expr) -> Expr {
    Expr::new(ExprKind::Unary(op, Box::new(a)), D)
}
fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
    Expr::ite(c, a, b)
}
fn select(m: Expr, i: Vec<Expr>) -> Expr {
    Expr::new(ExprKind::Select(Box::new(m), i), D)
}
fn stmt(k: StmtKind) -> Stmt {
    Stmt::new(k, D)
}
fn assign(x: &str, e: Expr) -> Stmt {
    stmt(StmtKind::Assign { lhss: vec![Lhs { var: id(x), indices: vec![], span: D }], rhss: vec![e] })
}
fn attr(name: &str, args: Vec<AttrArg>) -> Attribute {
    Attribute { name: id(name), args, span: D }
}
fn tid(n: &str, ty: Type) -> TypedIdent {
    TypedIdent { name: id(n), ty, where_clause: None, attrs: vec![] }
}
fn decl(k: DeclKind) -> Decl {
    Decl { kind: k, span: D }
}
fn forall(vars: Vec<TypedIdent>, body: Expr) -> Expr {
    Expr::new(
        ExprKind::Quant(Box::new(Quantifier {
            kind: QuantKind::Forall,
            type_params: vec![],
            vars,
            attrs: vec![],
            triggers: vec![],
            body,
        })),
        D,
    )
}

use BinOp::*;

#[test]
fn implication_is_right_associative() {
    assert_eq!(print_expr(&bin(Implies, v("a"), bin(Implies, v("b"), v("c")))), "a ==> b ==> c");
    assert_eq!(print_expr(&bin(Implies, bin(Implies, v("a"), v("b")), v("c"))), "(a ==> b) ==> c");
    assert_eq!(print_expr(&bin(Explies, bin(Explies, v("a"), v("b")), v("c"))), "a <== b <== c");
    assert_eq!(print_expr(&bin(Explies, v("a"), bin(Explies, v("b"), v("c")))), "a <== (b <== c)");
    assert_eq!(print_expr(&bin(Implies, v("a"), bin(Explies, v("b"), v("c")))), "a ==> (b <== c)");
}

#[test]
fn and_or_mixing_needs_parentheses() {
    assert_eq!(print_expr(&bin(Or, bin(And, v("a"), v("b")), v("c"))), "(a && b) || c");
    assert_eq!(print_expr(&bin(And, bin(And, v("a"), v("b")), v("c"))), "a && b && c");
    assert_eq!(print_expr(&bin(And, v("a"), bin(And, v("b"), v("c")))), "a && (b && c)");
    assert_eq!(print_expr(&bin(Iff, v("a"), bin(Implies, v("b"), v("c")))), "a <==> b ==> c");
    assert_eq!(print_expr(&bin(Implies, bin(Iff, v("a"), v("b")), v("c"))), "(a <==> b) ==> c");
}

#[test]
fn arithmetic_and_relations() {
    assert_eq!(print_expr(&bin(Sub, bin(Sub, v("a"), v("b")), v("c"))), "a - b - c");
    assert_eq!(print_expr(&bin(Sub, v("a"), bin(Sub, v("b"), v("c")))), "a - (b - c)");
    assert_eq!(print_expr(&bin(Mul, bin(Add, v("a"), v("b")), v("c"))), "(a + b) * c");
    assert_eq!(print_expr(&bin(Add, v("a"), bin(Mod, v("b"), v("c")))), "a + b mod c");
    assert_eq!(print_expr(&bin(Eq, bin(Lt, v("a"), v("b")), v("c"))), "(a < b) == c");
    assert_eq!(print_expr(&bin(And, bin(Le, int(0), v("i")), bin(Lt, v("i"), v("n")))), "0 <= i && i < n");
    assert_eq!(print_expr(&bin(Concat, v("a"), bin(Concat, v("b"), v("c")))), "a ++ (b ++ c)");
    assert_eq!(print_expr(&bin(Add, bin(Concat, v("a"), v("b")), v("c"))), "(a ++ b) + c");
}

#[test]
fn power_is_right_associative_and_binds_tighter_than_multiplication() {
    assert_eq!(print_expr(&bin(Pow, v("a"), bin(Pow, v("b"), v("c")))), "a ** b ** c");
    assert_eq!(print_expr(&bin(Pow, bin(Pow, v("a"), v("b")), v("c"))), "(a ** b) ** c");
    assert_eq!(print_expr(&bin(Mul, v("a"), bin(Pow, v("b"), v("c")))), "a * b ** c");
    assert_eq!(print_expr(&bin(Pow, bin(Mul, v("a"), v("b")), v("c"))), "(a * b) ** c");
    assert_eq!(print_expr(&bin(Pow, un(UnOp::Neg, v("a")), v("b"))), "-a ** b");
    assert_eq!(print_expr(&un(UnOp::Neg, bin(Pow, v("a"), v("b")))), "-(a ** b)");
}

#[test]
fn unary_operators() {
    assert_eq!(print_expr(&un(UnOp::Neg, int(5))), "-5");
    assert_eq!(print_expr(&un(UnOp::Neg, un(UnOp::Neg, v("x")))), "-(-x)");
    assert_eq!(print_expr(&un(UnOp::Not, un(UnOp::Not, v("p")))), "!!p");
    assert_eq!(print_expr(&un(UnOp::Not, bin(And, v("a"), v("b")))), "!(a && b)");
    assert_eq!(print_expr(&bin(Sub, v("x"), un(UnOp::Neg, v("y")))), "x - -y");
    assert_eq!(print_expr(&un(UnOp::Neg, select(v("m"), vec![v("i")]))), "-m[i]");
}

#[test]
fn if_then_else_is_bare_only_where_delimited() {
    let e = ite(v("c"), int(1), int(2));
    assert_eq!(print_expr(&e), "if c then 1 else 2");
    assert_eq!(print_expr(&bin(Add, e.clone(), int(1))), "(if c then 1 else 2) + 1");
    assert_eq!(print_expr(&bin(Add, int(1), e.clone())), "1 + (if c then 1 else 2)");
    let call = Expr::new(ExprKind::Call(id("f"), vec![e.clone(), v("x")]), D);
    assert_eq!(print_expr(&call), "f(if c then 1 else 2, x)");
    assert_eq!(print_expr(&ite(v("d"), e.clone(), e.clone())), "if d then if c then 1 else 2 else if c then 1 else 2");
    assert_eq!(print_expr(&un(UnOp::Not, ite(v("c"), v("a"), v("b")))), "!(if c then a else b)");
}

#[test]
fn literals_maps_and_bitvectors() {
    let bv = Expr::new(ExprKind::BvLit { value: 5u32.into(), width: 32 }, D);
    assert_eq!(print_expr(&bv), "5bv32");
    assert_eq!(print_expr(&Expr::new(ExprKind::RealLit("1.5e3".into()), D)), "1.5e3");
    let ext = Expr::new(ExprKind::Extract(Box::new(bin(Concat, v("a"), v("b"))), 8, 0), D);
    assert_eq!(print_expr(&ext), "(a ++ b)[8:0]");
    let sel = select(select(v("m"), vec![v("i")]), vec![bin(Add, v("j"), int(1)), v("k")]);
    assert_eq!(print_expr(&sel), "m[i][j + 1, k]");
    let store = Expr::new(ExprKind::Store(Box::new(v("m")), vec![v("i")], Box::new(ite(v("c"), v("a"), v("b")))), D);
    assert_eq!(print_expr(&store), "m[i := if c then a else b]");
    assert_eq!(print_expr(&select(bin(Add, v("a"), v("b")), vec![int(0)])), "(a + b)[0]");
    let old = Expr::new(ExprKind::Old(Box::new(select(v("g"), vec![v("i")]))), D);
    assert_eq!(print_expr(&old), "old(g[i])");
    let coerce = Expr::new(ExprKind::Coerce(Box::new(v("x")), Box::new(Type::int())), D);
    assert_eq!(print_expr(&coerce), "x : int");
    assert_eq!(print_expr(&bin(Add, coerce.clone(), int(1))), "(x : int) + 1");
}

#[test]
fn quantifiers_with_triggers_and_attributes() {
    let body = bin(Implies, bin(Le, int(0), v("i")), bin(Eq, select(v("a"), vec![v("i")]), int(0)));
    let mut q = forall(vec![tid("i", Type::int()), tid("j", Type::int()), tid("b", Type::bool())], body);
    if let ExprKind::Quant(qq) = &mut q.kind {
        qq.attrs.push(attr("weight", vec![AttrArg::Expr(int(2))]));
        qq.triggers.push(Trigger { exprs: vec![select(v("a"), vec![v("i")])], span: D });
    }
    assert_eq!(print_expr(&q), "(forall i, j: int, b: bool :: {:weight 2} { a[i] } 0 <= i ==> a[i] == 0)");
    assert!(print_expr(&bin(And, q.clone(), v("p"))).ends_with(") && p"));
    let lam = Expr::new(
        ExprKind::Quant(Box::new(Quantifier {
            kind: QuantKind::Lambda,
            type_params: vec![],
            vars: vec![tid("x", Type::bv(32))],
            attrs: vec![],
            triggers: vec![],
            body: v("x"),
        })),
        D,
    );
    assert_eq!(print_expr(&lam), "(lambda x: bv32 :: x)");
}

#[test]
fn types() {
    let map = Type::new(
        TypeKind::Map {
            type_params: vec![id("a")],
            args: vec![Type::int(), Type::bv(8)],
            result: Box::new(Type::bool()),
        },
        D,
    );
    assert_eq!(print_type(&map), "<a>[int, bv8]bool");
    let named = Type::new(
        TypeKind::Named(id("C"), vec![Type::new(TypeKind::Named(id("D"), vec![Type::int()]), D), map.clone()]),
        D,
    );
    assert_eq!(print_type(&named), "C (D int) (<a>[int, bv8]bool)");
    let nested = Type::new(
        TypeKind::Map {
            type_params: vec![],
            args: vec![Type::int()],
            result: Box::new(Type::new(
                TypeKind::Map { type_params: vec![], args: vec![Type::int()], result: Box::new(Type::int()) },
                D,
            )),
        },
        D,
    );
    assert_eq!(print_type(&nested), "[int][int]int");
}

#[test]
fn structured_statements() {
    let s = stmt(StmtKind::If {
        cond: Some(bin(Lt, v("x"), int(0))),
        then: vec![assign("y", int(1))],
        els: Some(Else::If(Box::new(stmt(StmtKind::If {
            cond: None,
            then: vec![assign("y", int(2))],
            els: Some(Else::Block(vec![stmt(StmtKind::Havoc(vec![id("y"), id("z")]))])),
        })))),
    });
    assert_eq!(print_stmt(&s), "if (x < 0) {\n  y := 1;\n} else if (*) {\n  y := 2;\n} else {\n  havoc y, z;\n}\n");
    let w = stmt(StmtKind::While {
        cond: Some(bin(Lt, v("i"), v("n"))),
        invariants: vec![
            Invariant { free: false, attrs: vec![], expr: bin(Le, int(0), v("i")), span: D },
            Invariant { free: true, attrs: vec![attr("candidate", vec![])], expr: v("p"), span: D },
        ],
        body: vec![assign("i", bin(Add, v("i"), int(1))), stmt(StmtKind::Break(None))],
    });
    assert_eq!(
        print_stmt(&w),
        "while (i < n)\n  invariant 0 <= i;\n  free invariant {:candidate} p;\n{\n  i := i + 1;\n  break;\n}\n"
    );
    let w2 = stmt(StmtKind::While { cond: None, invariants: vec![], body: vec![] });
    assert_eq!(print_stmt(&w2), "while (*) {\n}\n");
}

#[test]
fn simple_statements() {
    let call = stmt(StmtKind::Call {
        attrs: vec![attr("inline", vec![])],
        outs: vec![id("r"), id("s")],
        proc: id("P"),
        args: vec![v("x"), int(1)],
    });
    assert_eq!(print_stmt(&call), "call {:inline} r, s := P(x, 1);\n");
    let call0 = stmt(StmtKind::Call { attrs: vec![], outs: vec![], proc: id("Q"), args: vec![] });
    assert_eq!(print_stmt(&call0), "call Q();\n");
    let upd = stmt(StmtKind::Assign {
        lhss: vec![
            Lhs { var: id("m"), indices: vec![vec![v("i")], vec![v("j"), v("k")]], span: D },
            Lhs { var: id("x"), indices: vec![], span: D },
        ],
        rhss: vec![int(1), int(2)],
    });
    assert_eq!(print_stmt(&upd), "m[i][j, k], x := 1, 2;\n");
    let a = stmt(StmtKind::Assert {
        attrs: vec![
            attr("check", vec![AttrArg::String("race".into(), D)]),
            attr("sourceloc_num", vec![AttrArg::Expr(int(3))]),
        ],
        expr: v("p"),
    });
    assert_eq!(print_stmt(&a), "assert {:check \"race\"} {:sourceloc_num 3} p;\n");
    assert_eq!(print_stmt(&stmt(StmtKind::Goto(vec![id("L1"), id("L2")]))), "goto L1, L2;\n");
    assert_eq!(print_stmt(&stmt(StmtKind::Break(Some(id("L"))))), "break L;\n");
    assert_eq!(print_stmt(&stmt(StmtKind::Return)), "return;\n");
}

#[test]
fn barriers_and_vector_statements() {
    let b = stmt(StmtKind::Barrier { attrs: vec![attr("local", vec![])], invariants: vec![] });
    assert_eq!(print_stmt(&b), "barrier {:local};\n");
    let bi = stmt(StmtKind::Barrier {
        attrs: vec![],
        invariants: vec![
            BarrierInvariant { attrs: vec![], expr: v("phi"), span: D },
            BarrierInvariant {
                attrs: vec![attr("instantiate", vec![AttrArg::Expr(v("e1")), AttrArg::Expr(v("e2"))])],
                expr: v("chi"),
                span: D,
            },
        ],
    });
    assert_eq!(print_stmt(&bi), "barrier\n  invariant phi;\n  invariant {:instantiate e1, e2} chi;\n");
    let lhs = |x: &str, idx: Vec<Vec<Expr>>| Lhs { var: id(x), indices: idx, span: D };
    let vecs = [
        (VectorStmt::Assign { lhss: vec![lhs("x", vec![])], rhss: vec![v("e")] }, "vec x := e;\n"),
        (VectorStmt::Havoc(vec![id("x")]), "vec havoc x;\n"),
        (VectorStmt::Psi { lhs: lhs("g", vec![vec![v("i")]]), rhs: v("e") }, "vec psi g[i] := e;\n"),
        (VectorStmt::Assume(v("p")), "vec assume p;\n"),
        (VectorStmt::Assert(v("p")), "vec assert p;\n"),
    ];
    for (vs, text) in vecs {
        assert_eq!(print_stmt(&stmt(StmtKind::Vector(vs))), text);
    }
}

#[test]
fn declarations() {
    let c = decl(DeclKind::Const(ConstDecl {
        attrs: vec![attr("local_id_x", vec![])],
        unique: true,
        names: vec![id("a"), id("b")],
        ty: Type::bv(32),
        order_spec: None,
    }));
    assert_eq!(print_decl(&c), "const {:local_id_x} unique a, b: bv32;\n");
    let f = decl(DeclKind::Function(FunctionDecl {
        attrs: vec![attr("bvbuiltin", vec![AttrArg::String("bvadd".into(), D)])],
        name: id("BV32_ADD"),
        type_params: vec![],
        params: vec![FnParam { name: None, ty: Type::bv(32) }, FnParam { name: None, ty: Type::bv(32) }],
        result: FnParam { name: None, ty: Type::bv(32) },
        body: None,
    }));
    assert_eq!(print_decl(&f), "function {:bvbuiltin \"bvadd\"} BV32_ADD(bv32, bv32): bv32;\n");
    let g = decl(DeclKind::Function(FunctionDecl {
        attrs: vec![attr("inline", vec![AttrArg::Expr(Expr::bool(true))])],
        name: id("f"),
        type_params: vec![],
        params: vec![FnParam { name: Some(id("x")), ty: Type::int() }],
        result: FnParam { name: Some(id("r")), ty: Type::int() },
        body: Some(bin(Add, v("x"), int(1))),
    }));
    assert_eq!(print_decl(&g), "function {:inline true} f(x: int) returns (r: int) { x + 1 }\n");
    let t = decl(DeclKind::Type(TypeDecl {
        attrs: vec![],
        finite: false,
        name: id("T"),
        params: vec![id("a")],
        synonym: Some(Type::new(
            TypeKind::Map {
                type_params: vec![],
                args: vec![Type::int()],
                result: Box::new(Type::new(TypeKind::Named(id("a"), vec![]), D)),
            },
            D,
        )),
    }));
    assert_eq!(print_decl(&t), "type T a = [int]a;\n");
    let var = decl(DeclKind::Var(VarDecl {
        attrs: vec![attr("group_shared", vec![])],
        vars: vec![
            tid(
                "A",
                Type::new(
                    TypeKind::Map { type_params: vec![], args: vec![Type::int()], result: Box::new(Type::int()) },
                    D,
                ),
            ),
            TypedIdent { where_clause: Some(bin(Gt, v("x"), int(0))), ..tid("x", Type::int()) },
        ],
    }));
    assert_eq!(print_decl(&var), "var {:group_shared} A: [int]int, x: int where x > 0;\n");
}

fn procedure(body: Option<Body>) -> Decl {
    decl(DeclKind::Procedure(ProcedureDecl {
        attrs: vec![attr("kernel", vec![])],
        name: id("k"),
        type_params: vec![],
        ins: vec![tid("n", Type::int()), tid("m", Type::int())],
        outs: vec![tid("r", Type::bool())],
        contracts: vec![
            Contract { kind: SpecKind::Requires, free: false, attrs: vec![], expr: bin(Gt, v("n"), int(0)), span: D },
            Contract { kind: SpecKind::Ensures, free: true, attrs: vec![], expr: v("r"), span: D },
        ],
        modifies: vec![id("A"), id("B")],
        body,
    }))
}

#[test]
fn procedures_and_implementations() {
    assert_eq!(
        print_decl(&procedure(None)),
        "procedure {:kernel} k(n, m: int) returns (r: bool);\n  modifies A, B;\n  requires n > 0;\n  free ensures r;\n"
    );
    let body = Body {
        locals: vec![VarDecl { attrs: vec![], vars: vec![tid("i", Type::int())] }],
        stmts: vec![
            stmt(StmtKind::Label(id("entry"))),
            assign("i", int(0)),
            stmt(StmtKind::Goto(vec![id("exit")])),
            stmt(StmtKind::Label(id("exit"))),
            stmt(StmtKind::Return),
        ],
        span: D,
    };
    assert_eq!(
        print_decl(&procedure(Some(body.clone()))),
        "procedure {:kernel} k(n, m: int) returns (r: bool)\n  modifies A, B;\n  requires n > 0;\n  free ensures r;\n\
         {\n  var i: int;\n\n  entry:\n    i := 0;\n    goto exit;\n\n  exit:\n    return;\n}\n"
    );
    let imp = decl(DeclKind::Implementation(ImplementationDecl {
        attrs: vec![],
        name: id("k"),
        type_params: vec![],
        ins: vec![tid("n", Type::int())],
        outs: vec![],
        body: Body {
            locals: vec![],
            stmts: vec![stmt(StmtKind::Barrier { attrs: vec![], invariants: vec![] })],
            span: D,
        },
    }));
    assert_eq!(print_decl(&imp), "implementation k(n: int)\n{\n  barrier;\n}\n");
}

#[test]
fn program_layout_groups_one_line_declarations() {
    let c = |n: &str| {
        decl(DeclKind::Const(ConstDecl {
            attrs: vec![],
            unique: false,
            names: vec![id(n)],
            ty: Type::int(),
            order_spec: None,
        }))
    };
    let ax = decl(DeclKind::Axiom(AxiomDecl { attrs: vec![], expr: bin(Gt, v("a"), int(0)) }));
    let p = Program { decls: vec![c("a"), c("b"), ax, procedure(None)] };
    assert_eq!(
        print_program(&p),
        "const a: int;\nconst b: int;\n\naxiom a > 0;\n\nprocedure {:kernel} k(n, m: int) returns (r: bool);\n  modifies A, B;\n  requires n > 0;\n  free ensures r;\n"
    );
}

#[test]
fn keywords_used_as_names_are_escaped() {
    let e = Expr::new(ExprKind::Call(id("true"), vec![v("old"), v("local_id_x"), v("$x.1"), v("barrier")]), D);
    assert_eq!(print_expr(&e), "\\true(\\old, local_id_x, $x.1, \\barrier)");
}

#[test]
fn atomic_statements_print_and_parse_again() {
    let target = Lhs { var: id("A"), indices: vec![vec![v("i")]], span: D };
    let with_out = stmt(StmtKind::Atomic(AtomicStmt {
        op: AtomicOp::CmpXchg,
        out: Some(id("x")),
        target: target.clone(),
        args: vec![int(0), int(1)],
    }));
    assert_eq!(print_stmt(&with_out), "atomic x := cmpxchg(A[i], 0, 1);\n");
    let without = stmt(StmtKind::Atomic(AtomicStmt { op: AtomicOp::Inc, out: None, target, args: vec![] }));
    assert_eq!(print_stmt(&without), "atomic inc(A[i]);\n");
    for op in AtomicOp::ALL {
        assert_eq!(AtomicOp::from_name(op.name()), Some(op));
    }
    // `atomic` is a contextual keyword: still a variable elsewhere (printed escaped).
    let text = "procedure p()\n{\n  atomic x := add(A[i], 1);\n  atomic dec_wrap(B[0][j], m);\n  \\atomic := 1;\n}\n";
    let (prog, diags) = ivl::parser::parse_program(&text.replace("\\atomic", "atomic"));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(print_program(&prog), text);
    let (again, diags) = ivl::parser::parse_program(text);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(print_program(&again), text);
    let (_, diags) = ivl::parser::parse_program("procedure p() { atomic x := mul(A[i], 1); }");
    assert!(diags.iter().any(|d| d.message.contains("unknown atomic operation `mul`")), "{diags:?}");
}
