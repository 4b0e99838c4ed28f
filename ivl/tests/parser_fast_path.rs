//! The grammar's two instances agree: the fast one (`EmptyErr`, with the hand-written
//! expression and statement paths of `parser::grammar`) and the rich one (declarative combinators, used for
//! diagnostics) accept exactly the same declarations, with equal ASTs (spans included). Checked
//! on hand-written tricky expressions and statements and every mutation of them that drops or truncates
//! tokens, on the repository's `tests/boogie` and `tests/kernels`, and on every `.bpl` of
//! the corpus and of Boogie's own tests (`ivl::corpus`: skipped when their variables are unset, as on CI).

use ivl::parser::parse_decls_both_instances;
use std::path::{Path, PathBuf};

fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, exts, out);
        } else if p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)) {
            out.push(p);
        }
    }
}

/// Asserts agreement on `text`; returns how many declarations parsed.
fn agree(what: &str, text: &str) -> usize {
    let mut ok = 0;
    for (k, (fast, rich)) in parse_decls_both_instances(text).into_iter().enumerate() {
        assert_eq!(fast, rich, "{what}: declaration {k} differs between the instances");
        ok += fast.is_some() as usize;
    }
    ok
}

const TRICKY: &[&str] = &[
    "a && b || c",
    "a || b && c",
    "a ==> b ==> c",
    "a <== b <== c",
    "a <== b",
    "a ==> b <== c",
    "a <==> b <==> c",
    "x ** y ** z",
    "x + y * z - w / v div u mod t",
    "x ++ y ++ z",
    "a == b == c",
    "a < b <: c",
    "!-x",
    "-!-x[1]",
    "- -x",
    "!!a && !b",
    "m[i][j := v]",
    "m[i, j][k := v][l]",
    "m[]",
    "e[7:0]",
    "e[99999999999999999999:0]",
    "e[7:0][3:1]",
    "x : int",
    "x : int : bool",
    "-x : int",
    "m[i] : [int]bool",
    "(forall x: int :: {f(x)} {:weight 3} f(x) > 0)",
    "(exists<T> x: T, y: int :: x == x)",
    "(lambda x: int :: (lambda y: int :: x + y))",
    "(lambda x: int :: {f(x)} x)",
    "(forall x: int where x > 0 :: x > 0)",
    "if p then m[i] else v$1",
    "(if p$1 then m[i] else v$1)",
    "if a then if b then c else d else e",
    "if a then b else c && d",
    "old(x) + old(m[i])",
    "int(x) + real(y)",
    "int(x, y)",
    "1.5e3 + 2.0",
    "0x1.8p1f24e8",
    "5bv32 ++ 3bv8",
    "BV32_ADD(BV32_MUL(local_id_x$1, 5bv32), $$arr[1bv1][BV32_ADD(x, 3bv32)])",
    "f()",
    "f(,)",
    "f(x,)",
    "(x)",
    "((x))",
    "()",
    "x +",
    "+ x",
    "x [",
    "x : ",
    "m[i :=]",
    "|{ A: return true; }|",
    "123456789012345678901234567890 + 1bv1",
    "true <==> false ==> true",
    "m[5 : int]",
    "m[:= 30]",
    "m[, 1]",
    "f(:= 1)",
    "m[x : int]",
    "m[i, j := v]",
    "m[1bv32 := 2bv32][0bv32]",
    "f(x)(y)",
    "f (x y)",
    "f(x)[1][2 := 3]",
    "(if a then b)",
    "if a then (b) else (c)[1]",
    "(x, y)",
    "barrier(x) + vec[1]",
    "true[1] + 7[2]",
    "f(if a then b else c, (d))",
];

/// Every way of dropping one token (by whitespace) from `s`, and every prefix.
fn mutations(s: &str) -> Vec<String> {
    let words: Vec<&str> = s.split(' ').collect();
    let mut out = Vec::new();
    for i in 0..words.len() {
        let mut w = words.clone();
        w.remove(i);
        out.push(w.join(" "));
    }
    for i in 0..s.len() {
        if s.is_char_boundary(i) {
            out.push(s[..i].to_string());
        }
    }
    out
}

#[test]
fn instances_agree_on_tricky_expressions() {
    let mut parsed = 0;
    for e in TRICKY {
        let mut cases = vec![e.to_string()];
        cases.extend(mutations(e));
        for c in cases {
            let text = format!("axiom {c};\nprocedure p() {{ var q: bool; q := {c}; call {{:sourceloc_num 8}} f({c}, x); assert {{:a {c}}} {c}; }}\n");
            parsed += agree(&c, &text);
        }
    }
    // Most of the well-formed cases parse (the instances do not merely both fail).
    assert!(parsed > 100, "only {parsed} declarations parsed");
}

/// Statements, for the statement fast path (dispatch on `assume`, `assert`, `call` and
/// assignments; everything else falls back on the declarative choice).
const TRICKY_STMTS: &[&str] = &[
    "call x, y := f(a);",
    "assume {:a} {x} true;",
    "assume {:a 1, \"s\", x + 1} x;",
    "call {:a,} f();",
    "assert {:} x;",
    "assume {:a \"s\" \"t\"} x;",
    "assume {:a} {:b} {x} {:c} x;",
    "call {:a f(x) [1]} f();",
    "m[] := 12;",
    "m := m[:= 30];",
    "call f(:= 1);",
    "assert p[] == m[];",
    "call f();",
    "call {:a} {:b 1} x := f(1, 2);",
    "call forall f(x);",
    "call f(x) y;",
    "call x := ;",
    "x[1] := y;",
    "x[1][2, 3] := y[4];",
    "x, y := 1, 2;",
    "x := ;",
    "L: x := 1;",
    "L: assume x;",
    "assume {:a} {:b \"s\"} x;",
    "assert {:a} x == y;",
    "assert x",
    "vec := 1;",
    "barrier := 1;",
    "if (x) { call f(); } else { x := 1; }",
    "while (*) invariant x; { assume x; }",
    "havoc x; goto L; return;",
];

#[test]
fn instances_agree_on_tricky_statements() {
    let mut parsed = 0;
    for st in TRICKY_STMTS {
        let mut cases = vec![st.to_string()];
        cases.extend(mutations(st));
        for c in cases {
            let text = format!("procedure p() {{ var x: int; {c} L: {c} }}\n");
            parsed += agree(&c, &text);
        }
    }
    assert!(parsed > 30, "only {parsed} declarations parsed");
}

#[test]
fn instances_agree_on_deep_nesting() {
    for n in [10, 100, 300, 1000, 5000] {
        let parens = format!("axiom {}x{};", "(".repeat(n), ")".repeat(n));
        agree("parens", &parens);
        let negs = format!("axiom {}x;", "-".repeat(n));
        agree("negations", &negs);
        let sels = format!("axiom m{};", "[1]".repeat(n));
        agree("selects", &sels);
        let calls = format!("axiom {}x{};", "f(".repeat(n), ")".repeat(n));
        agree("calls", &calls);
        let sums = format!("axiom x{};", " + x".repeat(n));
        agree("sums", &sums);
        let in_attr = format!(
            "procedure p() {{ assume {{:a x{}}} true; call {{:b x{}}} f(); }}",
            " + x".repeat(n),
            " + x".repeat(n)
        );
        agree("attribute sums", &in_attr);
    }
}

/// Asserts agreement on every file of `fs`; returns how many declarations parsed.
fn agree_on_files(fs: &[PathBuf]) -> usize {
    fs.iter().map(|f| agree(&f.display().to_string(), &std::fs::read_to_string(f).unwrap_or_default())).sum()
}

/// The `.bpl` files under a corpus directory outside the repository; `None` (the test is
/// skipped) when it is absent, as on CI.

#[test]
fn instances_agree_on_repository_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("tests");
    let mut fs = Vec::new();
    files(&root.join("boogie"), &["bpl", "kbpl"], &mut fs);
    files(&root.join("kernels"), &["bpl", "kbpl"], &mut fs);
    assert!(!fs.is_empty(), "no test programs under {}", root.display());
    agree_on_files(&fs);
}

/// Boogie's own tests (`Test/` of boogie-org/boogie): many unusual and erroneous forms.
#[test]
fn instances_agree_on_boogie_tests() {
    if let Some(root) = ivl::corpus::boogie_tests() {
        agree_on_files(&ivl::corpus::bpl_files(&root));
    }
}

#[test]
fn instances_agree_on_gpu_corpus() {
    if let Some(root) = ivl::corpus::gpu() {
        let parsed = agree_on_files(&ivl::corpus::bpl_files(&root));
        assert!(parsed > 10_000, "only {parsed} declarations parsed");
    }
}
