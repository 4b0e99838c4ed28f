//! Expressions and types: Boogie's precedence and associativity, every expression form,
//! literals, spans, and the errors for operators that do not mix or associate.

use ivl::ast::*;
use ivl::parser::{parse_expr, parse_type};

/// A fully parenthesized rendering that shows the tree's shape.
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::BoolLit(b) => b.to_string(),
        ExprKind::IntLit(n) => n.to_string(),
        ExprKind::RealLit(r) => r.to_string(),
        ExprKind::BvLit { value, width } => format!("{value}bv{width}"),
        ExprKind::Var(x) => x.name.to_string(),
        ExprKind::Old(a) => format!("old({})", sx(a)),
        ExprKind::Unary(UnOp::Not, a) => format!("(! {})", sx(a)),
        ExprKind::Unary(UnOp::Neg, a) => format!("(- {})", sx(a)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), sx(a), sx(b)),
        ExprKind::Call(f, args) => format!("{}({})", f.name, list(args)),
        ExprKind::Select(m, i) => format!("{}[{}]", sx(m), list(i)),
        ExprKind::Store(m, i, v) => format!("{}[{} := {}]", sx(m), list(i), sx(v)),
        ExprKind::Extract(a, hi, lo) => format!("{}[{hi}:{lo}]", sx(a)),
        ExprKind::IfThenElse(c, a, b) => format!("(ite {} {} {})", sx(c), sx(a), sx(b)),
        ExprKind::Coerce(a, t) => format!("(: {} {})", sx(a), ty(t)),
        ExprKind::Let(l) => {
            let vars: Vec<_> = l.vars.iter().map(|v| v.name.to_string()).collect();
            format!("(let {} := {}; {})", vars.join(", "), list(&l.values), sx(&l.body))
        }
        ExprKind::Code(c) => {
            let blocks: Vec<_> = c
                .blocks
                .iter()
                .map(|b| match &b.end {
                    CodeEnd::Goto(ts) => {
                        let ts: Vec<_> = ts.iter().map(|t| t.name.to_string()).collect();
                        format!("{}: {} stmts goto {}", b.label.name, b.stmts.len(), ts.join(","))
                    }
                    CodeEnd::Return(e) => format!("{}: {} stmts return {}", b.label.name, b.stmts.len(), sx(e)),
                })
                .collect();
            format!("(code {} locals; {})", c.locals.len(), blocks.join("; "))
        }
        ExprKind::Quant(q) => {
            let kind = match q.kind {
                QuantKind::Forall => "forall",
                QuantKind::Exists => "exists",
                QuantKind::Lambda => "lambda",
            };
            let tps: Vec<_> = q.type_params.iter().map(|t| t.name.to_string()).collect();
            let vars: Vec<_> = q.vars.iter().map(|v| format!("{}: {}", v.name.name, ty(&v.ty))).collect();
            let attrs: Vec<_> = q.attrs.iter().map(|a| format!("{{:{}}}", a.name.name)).collect();
            let trigs: Vec<_> = q.triggers.iter().map(|t| format!("{{{}}}", list(&t.exprs))).collect();
            format!(
                "({kind} <{}> {} :: {}{}{})",
                tps.join(","),
                vars.join(", "),
                attrs.join(""),
                trigs.join(""),
                sx(&q.body)
            )
        }
    }
}

fn list(es: &[Expr]) -> String {
    es.iter().map(sx).collect::<Vec<_>>().join(", ")
}

fn ty(t: &Type) -> String {
    match &t.kind {
        TypeKind::Bool => "bool".into(),
        TypeKind::Int => "int".into(),
        TypeKind::Real => "real".into(),
        TypeKind::Bv(w) => format!("bv{w}"),
        TypeKind::Named(n, args) if args.is_empty() => n.name.to_string(),
        TypeKind::Named(n, args) => {
            format!("({} {})", n.name, args.iter().map(ty).collect::<Vec<_>>().join(" "))
        }
        TypeKind::Map { type_params, args, result } => {
            let tps: Vec<_> = type_params.iter().map(|t| t.name.to_string()).collect();
            let tps = if tps.is_empty() { String::new() } else { format!("<{}>", tps.join(",")) };
            format!("{tps}[{}]{}", args.iter().map(ty).collect::<Vec<_>>().join(","), ty(result))
        }
    }
}

fn p(src: &str) -> String {
    match parse_expr(src) {
        Ok(e) => sx(&e),
        Err(d) => panic!("{src:?} does not parse: {d:?}"),
    }
}

/// The single diagnostic of a bad expression: (message, start offset).
fn err(src: &str) -> (String, u32) {
    let d = parse_expr(src).expect_err(src);
    assert_eq!(d.len(), 1, "{src}: {d:?}");
    (d[0].message.clone(), d[0].primary.span.start)
}

#[test]
fn precedence_loosest_to_tightest() {
    assert_eq!(p("a <==> b ==> c || d"), "(<==> a (==> b (|| c d)))");
    assert_eq!(p("a ==> b && c"), "(==> a (&& b c))");
    assert_eq!(p("a && b == c"), "(&& a (== b c))");
    assert_eq!(p("a == b ++ c"), "(== a (++ b c))");
    assert_eq!(p("a ++ b + c"), "(++ a (+ b c))");
    assert_eq!(p("a + b * c"), "(+ a (* b c))");
    assert_eq!(p("a * -b"), "(* a (- b))");
    assert_eq!(p("-a * b"), "(* (- a) b)");
    assert_eq!(p("!a && b"), "(&& (! a) b)");
    assert_eq!(p("-x[1]"), "(- x[1])");
    assert_eq!(p("a * b + c * d < e - f"), "(< (+ (* a b) (* c d)) (- e f))");
    assert_eq!(p("a <: b"), "(<: a b)");
    assert_eq!(p("x div 2 mod 3 / 4.0"), "(/ (mod (div x 2) 3) 4.0)");
}

/// `**` (Boogie's `Power`): between `* div mod /` and unary operators, right-associative.
#[test]
fn power_operator() {
    assert_eq!(p("a * b ** c"), "(* a (** b c))");
    assert_eq!(p("a ** b * c"), "(* (** a b) c)");
    assert_eq!(p("a ** b ** c"), "(** a (** b c))");
    assert_eq!(p("-a ** b"), "(** (- a) b)");
    assert_eq!(p("a ** -b"), "(** a (- b))");
    assert_eq!(p("a + b ** 2.0 < c"), "(< (+ a (** b 2.0)) c)");
    assert_eq!(p("(a ** b) ** c"), "(** (** a b) c)");
    assert_eq!(p("m[i] ** 2.0"), "(** m[i] 2.0)");
    // `* *` is two multiplications' worth of operators, not a power.
    assert!(parse_expr("a * * b").is_err());
    assert_eq!(err("a ** "), ("expected expression, found end of input".into(), 4));
}

#[test]
fn associativity() {
    assert_eq!(p("a <==> b <==> c"), "(<==> (<==> a b) c)");
    assert_eq!(p("a ==> b ==> c"), "(==> a (==> b c))");
    assert_eq!(p("a <== b <== c"), "(<== (<== a b) c)");
    assert_eq!(p("a && b && c"), "(&& (&& a b) c)");
    assert_eq!(p("a || b || c"), "(|| (|| a b) c)");
    assert_eq!(p("a - b - c"), "(- (- a b) c)");
    assert_eq!(p("a ++ b ++ c"), "(++ (++ a b) c)");
    assert_eq!(p("a / b * c"), "(* (/ a b) c)");
    assert_eq!(p("a ==> b <==> c ==> d"), "(<==> (==> a b) (==> c d))");
    assert_eq!(p("!!a"), "(! (! a))");
    assert_eq!(p("- -a"), "(- (- a))");
    assert_eq!(p("(a && b) || c"), "(|| (&& a b) c)");
    assert_eq!(p("a < (b < c)"), "(< a (< b c))");
}

#[test]
fn operators_that_do_not_mix_or_associate() {
    assert_eq!(err("a && b || c"), ("`&&` and `||` cannot be mixed without parentheses".into(), 7));
    assert_eq!(err("a || b && c"), ("`&&` and `||` cannot be mixed without parentheses".into(), 7));
    assert_eq!(err("a < b < c"), ("comparisons do not associate, use parentheses".into(), 6));
    assert_eq!(err("a == b != c"), ("comparisons do not associate, use parentheses".into(), 7));
    assert_eq!(err("a ==> b <== c"), ("illegal mixture of `==>` and `<==`, use parentheses to disambiguate".into(), 8));
}

#[test]
fn postfix_forms() {
    assert_eq!(p("m[i][j := v]"), "m[i][j := v]");
    assert_eq!(p("m[i, j]"), "m[i, j]");
    assert_eq!(p("m[]"), "m[]");
    assert_eq!(p("m[:= v]"), "m[ := v]");
    assert_eq!(p("x[7:0]"), "x[7:0]");
    assert_eq!(p("f(x, y)[0][31:16]"), "f(x, y)[0][31:16]");
    assert_eq!(p("x : int"), "(: x int)");
    assert_eq!(p("-x : bv8"), "(- (: x bv8))");
    assert_eq!(p("m[i : int]"), "m[(: i int)]");
}

#[test]
fn atoms() {
    assert_eq!(p("old(x) + int(r) + real(i)"), "(+ (+ old(x) int(r)) real(i))");
    assert_eq!(p("f()"), "f()");
    assert_eq!(p("if a then b else c + 1"), "(ite a b (+ c 1))");
    assert_eq!(p("if a then if b then c else d else e"), "(ite a (ite b c d) e)");
    assert_eq!(p("x + (if a then 1 else 2)"), "(+ x (ite a 1 2))");
    assert_eq!(p("\\true && true"), "(&& true true)");
    assert_eq!(p("x'.y$1#~^?`"), "x'.y$1#~^?`");
    assert_eq!(p("barrier + vec + psi"), "(+ (+ barrier vec) psi)");
}

#[test]
fn literals() {
    let e = parse_expr("123456789012345678901234567890").unwrap();
    assert_eq!(e.kind, ExprKind::IntLit("123456789012345678901234567890".parse().unwrap()));
    let e = parse_expr("5bv32").unwrap();
    assert_eq!(e.kind, ExprKind::BvLit { value: 5u32.into(), width: 32 });
    assert_eq!(parse_expr("1.5").unwrap().kind, ExprKind::RealLit("1.5".into()));
    assert_eq!(parse_expr("2e3").unwrap().kind, ExprKind::RealLit("2e3".into()));
    assert_eq!(parse_expr("2.0e-3").unwrap().kind, ExprKind::RealLit("2.0e-3".into()));
    assert_eq!(parse_expr("false").unwrap().kind, ExprKind::BoolLit(false));
    // Boogie's float literals parse (type-checked as `float24e8`; verification refuses their
    // arithmetic, docs/kbpl.md §2.1).
    assert_eq!(parse_expr("0x1.8e0f24e8").unwrap().kind, ExprKind::RealLit("0x1.8e0f24e8".into()));
}

#[test]
fn quantifiers() {
    assert_eq!(
        p("(forall x: int, y: bool :: {:weight 2} { f(x), g(y) } {h(x)} f(x) > 0)"),
        "(forall <> x: int, y: bool :: {:weight}{f(x), g(y)}{h(x)}(> f(x) 0))"
    );
    assert_eq!(p("(forall x, y: int :: x == y)"), "(forall <> x: int, y: int :: (== x y))");
    assert_eq!(p("(exists<T> x: T :: true)"), "(exists <T> x: T :: true)");
    assert_eq!(p("(forall<T> :: true)"), "(forall <T>  :: true)");
    assert_eq!(p("(lambda i: bv32 :: i ++ i)[0bv32]"), "(lambda <> i: bv32 :: (++ i i))[0bv32]");
    assert_eq!(p("(∀ x: int • x ⇒ y ∧ z)"), "(forall <> x: int :: (==> x (&& y z)))");
    let e = parse_expr("(forall {:a} x: int :: true)").unwrap();
    let ExprKind::Quant(q) = &e.kind else { panic!() };
    assert_eq!(q.vars[0].attrs[0].name.name, "a");
    // Quantifier bodies extend to the closing parenthesis.
    assert_eq!(p("(forall x: int :: a ==> b) && c"), "(&& (forall <> x: int :: (==> a b)) c)");
}

#[test]
fn spans_cover_the_text_of_each_node() {
    let src = "f(a, (b + c)) * m[i := 1]";
    let e = parse_expr(src).unwrap();
    let text = |s: Span| &src[s.range()];
    assert_eq!(text(e.span), src);
    let ExprKind::Binary(_, l, r) = &e.kind else { panic!() };
    assert_eq!(text(l.span), "f(a, (b + c))");
    assert_eq!(text(r.span), "m[i := 1]");
    let ExprKind::Call(f, args) = &l.kind else { panic!() };
    assert_eq!(text(f.span), "f");
    assert_eq!(text(args[1].span), "(b + c)");
    let e = parse_expr("  -x").unwrap();
    assert_eq!(e.span, Span::new(2, 4));
}

#[test]
fn types() {
    let t = |s: &str| ty(&parse_type(s).unwrap_or_else(|d| panic!("{s}: {d:?}")));
    assert_eq!(t("int"), "int");
    assert_eq!(t("bv32"), "bv32");
    assert_eq!(t("bv0"), "bv0");
    assert_eq!(t("bvx"), "bvx");
    assert_eq!(t("[int][bool]bv8"), "[int][bool]bv8");
    assert_eq!(t("[int, bool]real"), "[int,bool]real");
    assert_eq!(t("<a>[a]int"), "<a>[a]int");
    assert_eq!(t("C int (D bool) [int]int"), "(C int (D bool) [int]int)");
    assert_eq!(t("C D E"), "(C D E)");
    assert_eq!(t("(int)"), "int");
    assert_eq!(t("[]int"), "[]int");
    assert!(parse_type("[int]").is_err());
    assert!(parse_type("int int").is_err());
}

#[test]
fn errors_in_expressions() {
    assert_eq!(err("a +"), ("expected expression, found end of input".into(), 3));
    assert_eq!(err("f(a,, b)"), ("expected expression, found `,`".into(), 4));
    let (m, at) = err("(a");
    assert!(m.contains("`)`") && m.ends_with("found end of input"), "{m}");
    assert_eq!(at, 2);
    let (m, at) = err("x[1:0");
    assert!(m.contains("expected `]`") && m.contains("found end of input"), "{m}");
    assert_eq!(at, 5);
}

#[test]
fn let_expressions() {
    let e = parse_expr("(var x, y := 1, a + b; x * y) + 1").expect("parses");
    assert_eq!(sx(&e), "(+ (let x, y := 1, (+ a b); (* x y)) 1)");
    assert!(parse_expr("(var x := 1 x)").is_err());
}

#[test]
fn code_expressions() {
    let e = parse_expr(
        "!|{ var x: int; var y, z: bool; A: x := 1; assume y; goto B, C; B: return x > 0; C: return z; }| && b",
    )
    .expect("parses");
    assert_eq!(
        sx(&e),
        "(&& (! (code 2 locals; A: 2 stmts goto B,C; B: 0 stmts return (> x 0); C: 0 stmts return z)) b)"
    );
    // A block ends in `goto` or `return`; a code expression has at least one block.
    assert!(parse_expr("|{ A: assume true; }|").is_err());
    assert!(parse_expr("|{ var x: int; }|").is_err());
}
