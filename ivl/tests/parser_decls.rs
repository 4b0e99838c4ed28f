//! Every declaration and statement form, including the GPU extensions (`barrier` with barrier
//! invariants, docs/kbpl.md §3.3, §5.3) and the lock-step `vec` statements (seed 000 §4.2), and the
//! splitting of files into declarations.

use ivl::ast::*;
use ivl::diag::ErrorKind;
use ivl::parser::{parse_decl, parse_decls, parse_program};
use ivl::split::split_decls;

fn decl(src: &str) -> Decl {
    let (d, diags) = parse_decl(src);
    assert!(diags.is_empty(), "{src}: {diags:?}");
    d.expect("a declaration")
}

fn body_of(src: &str) -> Body {
    match decl(src).kind {
        DeclKind::Implementation(i) => i.body,
        DeclKind::Procedure(p) => p.body.expect("a body"),
        k => panic!("not a procedure: {k:?}"),
    }
}

/// The statements of `implementation P() { <stmts> }`.
fn stmts(s: &str) -> Vec<Stmt> {
    body_of(&format!("implementation P() {{ {s} }}")).stmts
}

fn stmt(s: &str) -> StmtKind {
    let mut v = stmts(s);
    assert_eq!(v.len(), 1, "{s}: {v:?}");
    v.remove(0).kind
}

fn name(i: &Ident) -> &str {
    i.as_str()
}

fn var(e: &Expr) -> &str {
    match &e.kind {
        ExprKind::Var(x) => x.as_str(),
        k => panic!("not a variable: {k:?}"),
    }
}

fn first_error(src: &str) -> (ErrorKind, String) {
    let (d, diags) = parse_decl(src);
    assert!(d.is_none(), "{src} should not parse");
    (diags[0].kind, diags[0].message.clone())
}

#[test]
fn type_declarations() {
    let DeclKind::Type(t) = decl("type {:a} finite T x y;").kind else { panic!() };
    assert!(t.finite);
    assert_eq!(name(&t.name), "T");
    assert_eq!(t.params.iter().map(name).collect::<Vec<_>>(), ["x", "y"]);
    assert_eq!(name(&t.attrs[0].name), "a");
    assert!(t.synonym.is_none());
    let DeclKind::Type(t) = decl("type S a = [a]bv32;").kind else { panic!() };
    assert!(matches!(t.synonym.unwrap().kind, TypeKind::Map { .. }));
    // `type A, B;` declares two types.
    let (ds, diags) = parse_decls("type {:x} A, B c;");
    assert!(diags.is_empty());
    let names: Vec<_> = ds.iter().map(|d| d.name().unwrap().as_str().to_string()).collect();
    assert_eq!(names, ["A", "B"]);
    let (p, diags) = parse_program("type A, B; var x: A;");
    assert!(diags.is_empty());
    assert_eq!(p.decls.len(), 3);
    assert_eq!(first_error("type A, B;").0, ErrorKind::Unsupported);
}

#[test]
fn constants() {
    let DeclKind::Const(c) = decl("const {:existential true} unique a, b: bv32;").kind else { panic!() };
    assert!(c.unique);
    assert_eq!(c.names.iter().map(name).collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(c.ty.kind, TypeKind::Bv(32));
    assert!(matches!(&c.attrs[0].args[0], AttrArg::Expr(e) if e.kind == ExprKind::BoolLit(true)));
    assert!(c.order_spec.is_none());
    let src = "const unique c: T extends unique p, q complete;";
    let DeclKind::Const(c) = decl(src).kind else { panic!() };
    assert_eq!(&src[c.order_spec.unwrap().range()], "extends unique p, q complete");
    let DeclKind::Const(c) = decl("const c: T extends;").kind else { panic!() };
    assert!(c.order_spec.is_some());
}

#[test]
fn functions() {
    let DeclKind::Function(f) = decl("function {:bvbuiltin \"bvadd\"} BV32_ADD(bv32, bv32) : bv32;").kind else {
        panic!()
    };
    assert_eq!(name(&f.name), "BV32_ADD");
    assert!(matches!(&f.attrs[0].args[0], AttrArg::String(s, _) if s == "bvadd"));
    assert!(f.params.iter().all(|p| p.name.is_none() && p.ty.kind == TypeKind::Bv(32)));
    assert!(f.result.name.is_none() && f.body.is_none());

    let DeclKind::Function(f) = decl("function {:inline} f<T>(x: T, y, z: int) returns (r: bool) { x == x }").kind
    else {
        panic!()
    };
    assert_eq!(f.type_params.iter().map(name).collect::<Vec<_>>(), ["T"]);
    let ps: Vec<_> =
        f.params.iter().map(|p| (p.name.as_ref().map(|n| n.as_str().to_string()), p.ty.kind.clone())).collect();
    // `y` takes the type of `z` (Boogie's rule for names without a type).
    assert_eq!(ps[1], (Some("y".to_string()), TypeKind::Int));
    assert_eq!(ps[2], (Some("z".to_string()), TypeKind::Int));
    assert!(matches!(&ps[0].1, TypeKind::Named(n, _) if n.as_str() == "T"));
    assert_eq!(f.result.name.as_ref().map(name), Some("r"));
    assert!(f.body.is_some());

    assert_eq!(
        first_error("function f(x: int, y): int;"),
        (ErrorKind::Syntax, "the type of the last parameter is unspecified".into())
    );
    assert_eq!(first_error("function f(int: int): int;"), (ErrorKind::Syntax, "expected identifier before ':'".into()));
}

#[test]
fn axioms_and_global_variables() {
    let DeclKind::Axiom(a) = decl("axiom {:array_info \"$$A\"} {:elem_width 8} true;").kind else { panic!() };
    assert_eq!(a.attrs.len(), 2);
    let DeclKind::Var(v) = decl("var {:group_shared} A, B: [bv32]bv8, x: int where x > 0;").kind else { panic!() };
    assert_eq!(name(&v.attrs[0].name), "group_shared");
    assert_eq!(v.vars.iter().map(|x| name(&x.name)).collect::<Vec<_>>(), ["A", "B", "x"]);
    assert!(v.vars[2].where_clause.is_some() && v.vars[0].where_clause.is_none());
}

#[test]
fn procedures_and_specifications() {
    let src = "procedure {:kernel} K<T>({:a} x: int, y: bool) returns (r: int);
  requires x > 0;
  free requires {:candidate} y;
  ensures r == x;
  free ensures true;
  modifies A, B;
  free modifies C;";
    let DeclKind::Procedure(p) = decl(src).kind else { panic!() };
    assert_eq!(name(&p.name), "K");
    assert_eq!(p.type_params.len(), 1);
    assert_eq!(name(&p.ins[0].attrs[0].name), "a");
    assert!(p.ins[1].attrs.is_empty());
    assert_eq!(p.outs.len(), 1);
    let kinds: Vec<_> = p.contracts.iter().map(|c| (c.kind, c.free)).collect();
    assert_eq!(
        kinds,
        [
            (SpecKind::Requires, false),
            (SpecKind::Requires, true),
            (SpecKind::Ensures, false),
            (SpecKind::Ensures, true)
        ]
    );
    assert_eq!(name(&p.contracts[1].attrs[0].name), "candidate");
    assert_eq!(&src[p.contracts[0].span.range()], "requires x > 0;");
    assert_eq!(p.modifies.iter().map(name).collect::<Vec<_>>(), ["A", "B", "C"]);
    assert!(p.body.is_none());

    // A body instead of `;` (no `;` after the signature), specs before it.
    let DeclKind::Procedure(p) = decl("procedure P() returns () modifies x; { var y: int; y := 1; }").kind else {
        panic!()
    };
    let b = p.body.unwrap();
    assert_eq!(b.locals.len(), 1);
    assert_eq!(b.stmts.len(), 1);
    // `procedure P(); { }` is not Boogie.
    assert_eq!(first_error("procedure P(); { }").0, ErrorKind::Syntax);
}

#[test]
fn implementations() {
    let src =
        "implementation {:inline 1} P(x: int) returns (r: int)\n{\n  var {:a} a, b: int;\n  var c: bool;\n  r := x;\n}";
    let d = decl(src);
    assert_eq!(&src[d.span.range()], src);
    let DeclKind::Implementation(i) = d.kind else { panic!() };
    assert_eq!(i.body.locals.len(), 2);
    assert_eq!(name(&i.body.locals[0].attrs[0].name), "a");
    assert_eq!(&src[i.body.span.range()], &src[src.find("\n{").unwrap() + 1..]);
    assert_eq!(
        first_error("implementation P(x: int where x > 0) { }"),
        (ErrorKind::Syntax, "where clause not allowed on the 'implementation' copies of formals".into())
    );
}

#[test]
fn simple_statements() {
    let StmtKind::Assign { lhss, rhss } = stmt("x, m[i][j, k] := 1, 2;") else { panic!() };
    assert_eq!(name(&lhss[1].var), "m");
    assert_eq!(lhss[1].indices.len(), 2);
    assert_eq!(lhss[1].indices[1].len(), 2);
    assert_eq!(rhss.len(), 2);
    assert!(matches!(stmt("havoc x, y;"), StmtKind::Havoc(v) if v.len() == 2));
    assert!(matches!(stmt("assert {:sourceloc_num 3} x;"), StmtKind::Assert { attrs, .. } if attrs.len() == 1));
    assert!(matches!(stmt("assume {:partition} x;"), StmtKind::Assume { attrs, .. } if attrs.len() == 1));
    let StmtKind::Call { attrs, outs, proc, args } = stmt("call {:a} r, s := P(1, x);") else { panic!() };
    assert_eq!((attrs.len(), outs.len(), name(&proc), args.len()), (1, 2, "P", 2));
    let StmtKind::Call { outs, args, .. } = stmt("call P();") else { panic!() };
    assert!(outs.is_empty() && args.is_empty());
    assert!(matches!(stmt("goto A, B;"), StmtKind::Goto(v) if v.len() == 2));
    assert!(matches!(stmt("return;"), StmtKind::Return));
    assert!(matches!(stmt("break;"), StmtKind::Break(None)));
    assert!(matches!(stmt("break L;"), StmtKind::Break(Some(l)) if l.as_str() == "L"));
}

#[test]
fn labels() {
    let s = stmts("L: x := 1; M: N: goto L; End:");
    let kinds: Vec<_> = s
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Label(l) => format!("{}:", l.as_str()),
            StmtKind::Assign { .. } => "assign".into(),
            StmtKind::Goto(_) => "goto".into(),
            k => format!("{k:?}"),
        })
        .collect();
    assert_eq!(kinds, ["L:", "assign", "M:", "N:", "goto", "End:"]);
}

#[test]
fn structured_statements() {
    let StmtKind::If { cond, then, els } = stmt("if (x) { y := 1; } else if (*) { } else { return; }") else {
        panic!()
    };
    assert_eq!(var(&cond.unwrap()), "x");
    assert_eq!(then.len(), 1);
    let Some(Else::If(inner)) = els else { panic!() };
    let StmtKind::If { cond: None, els: Some(Else::Block(b)), .. } = inner.kind else { panic!() };
    assert!(matches!(b[0].kind, StmtKind::Return));
    assert!(matches!(stmt("if (*) { }"), StmtKind::If { cond: None, els: None, .. }));

    let src = "while (i < n) invariant {:candidate} i >= 0; free invariant b; { i := i + 1; }";
    let StmtKind::While { cond, invariants, body } = stmt(src) else { panic!() };
    assert!(cond.is_some());
    assert_eq!(invariants.len(), 2);
    assert!(!invariants[0].free && invariants[1].free);
    assert_eq!(name(&invariants[0].attrs[0].name), "candidate");
    assert_eq!(body.len(), 1);
    assert!(matches!(stmt("while (*) { break; }"), StmtKind::While { cond: None, .. }));
    assert!(matches!(stmt("{ x := 1; { } }"), StmtKind::Block(b) if b.len() == 2));
}

#[test]
fn barriers() {
    let StmtKind::Barrier { attrs, invariants } = stmt("barrier;") else { panic!() };
    assert!(attrs.is_empty() && invariants.is_empty());
    let StmtKind::Barrier { attrs, .. } = stmt("barrier {:local};") else { panic!() };
    assert_eq!(name(&attrs[0].name), "local");
    let src =
        "barrier {:global}\n    invariant A[tid] == 0;\n    invariant {:instantiate tid + 1, tid - 1} B[tid] > 0;";
    let s = &stmts(src)[0];
    let StmtKind::Barrier { attrs, invariants } = &s.kind else { panic!() };
    assert_eq!(attrs.len(), 1);
    assert_eq!(invariants.len(), 2);
    let inst = &invariants[1].attrs[0];
    assert_eq!((name(&inst.name), inst.args.len()), ("instantiate", 2));
    let full = format!("implementation P() {{ {src} }}");
    let b = body_of(&full);
    assert_eq!(&full[b.stmts[0].span.range()], src);
    // `barrier` followed by `:=`, `[` or `,` is a variable; before `:` a label.
    assert!(matches!(stmt("barrier := 1;"), StmtKind::Assign { lhss, .. } if lhss[0].var.as_str() == "barrier"));
    assert!(matches!(stmt("barrier[0] := 1;"), StmtKind::Assign { lhss, .. } if lhss[0].indices.len() == 1));
    assert!(matches!(stmt("barrier, x := 1, 2;"), StmtKind::Assign { lhss, .. } if lhss.len() == 2));
    assert!(matches!(&stmts("barrier: x := 1;")[0].kind, StmtKind::Label(l) if l.as_str() == "barrier"));
    assert!(matches!(stmt("x := barrier;"), StmtKind::Assign { rhss, .. } if var(&rhss[0]) == "barrier"));
    assert_eq!(first_error("implementation P() { barrier invariant; }").0, ErrorKind::Syntax);
}

#[test]
fn vector_statements() {
    let StmtKind::Vector(VectorStmt::Assign { lhss, rhss }) = stmt("vec x, y := e1, e2;") else { panic!() };
    assert_eq!((lhss.len(), rhss.len()), (2, 2));
    assert!(matches!(stmt("vec havoc x, y;"), StmtKind::Vector(VectorStmt::Havoc(v)) if v.len() == 2));
    let StmtKind::Vector(VectorStmt::Psi { lhs, rhs }) = stmt("vec psi g[i] := e;") else { panic!() };
    assert_eq!((name(&lhs.var), lhs.indices.len(), var(&rhs)), ("g", 1, "e"));
    assert!(matches!(stmt("vec assume e;"), StmtKind::Vector(VectorStmt::Assume(_))));
    assert!(matches!(stmt("vec assert e;"), StmtKind::Vector(VectorStmt::Assert(_))));
    // `psi` and `vec` stay usable as names.
    assert!(
        matches!(stmt("vec psi := 1;"), StmtKind::Vector(VectorStmt::Assign { lhss, .. }) if lhss[0].var.as_str() == "psi")
    );
    assert!(matches!(stmt("vec psi[0] := 1;"), StmtKind::Vector(VectorStmt::Assign { .. })));
    assert!(matches!(stmt("vec := 1;"), StmtKind::Assign { lhss, .. } if lhss[0].var.as_str() == "vec"));
    assert!(matches!(stmt("vec[1] := 1;"), StmtKind::Assign { .. }));
}

#[test]
fn unsupported_statements() {
    for s in ["yield;", "par A() | B();", "async call A();", "call forall P(1);"] {
        let (k, m) = first_error(&format!("implementation P() {{ {s} }}"));
        assert_eq!(k, ErrorKind::Unsupported, "{s}");
        assert!(m.contains("not supported"), "{s}: {m}");
    }
    // ... but those words remain names.
    assert!(matches!(stmt("yield := par + async;"), StmtKind::Assign { .. }));
}

#[test]
fn free_call_is_a_call_marked_free() {
    let StmtKind::Call { attrs, outs, proc, .. } = stmt("free call {:a} r := P(1);") else { panic!() };
    assert_eq!(attrs.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), [ivl::ast::FREE_CALL_ATTR, "a"]);
    assert_eq!((outs.len(), proc.as_str()), (1, "P"));
    let StmtKind::Call { attrs, .. } = stmt("call P();") else { panic!() };
    assert!(attrs.is_empty());
}

#[test]
fn statement_spans() {
    let src = "implementation P() {\n  L: x := 1;\n  assert {:a} x > 0;\n  if (x) { } else { }\n}";
    let b = body_of(src);
    let texts: Vec<_> = b.stmts.iter().map(|s| &src[s.span.range()]).collect();
    assert_eq!(texts, ["L:", "x := 1;", "assert {:a} x > 0;", "if (x) { } else { }"]);
}

#[test]
fn split_agrees_with_parse_program() {
    let src = "// c\ntype T;\nconst c: T;\nprocedure P() { var x: int; x := 1; }\n/* x */ axiom true;\nvar g: int;\n";
    let chunks = split_decls(src);
    assert_eq!(chunks.iter().map(|c| c.keyword).collect::<Vec<_>>(), ["type", "const", "procedure", "axiom", "var"]);
    let (p, d) = parse_program(src);
    assert!(d.is_empty());
    assert_eq!(p.decls.len(), chunks.len());
    for (decl, c) in p.decls.iter().zip(&chunks) {
        assert_eq!(decl.span, Span { start: c.start, end: c.end });
        assert_eq!(decl.keyword(), c.keyword);
        assert_eq!(decl.name().map(|n| n.as_str().to_string()), c.name);
        // Parsing the chunk alone gives the same declaration, shifted.
        let (alone, diags) = parse_decl(&src[c.start as usize..c.end as usize]);
        assert!(diags.is_empty());
        assert_eq!(alone.unwrap().span, Span { start: 0, end: c.end - c.start });
    }
}
