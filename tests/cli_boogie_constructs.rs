//! Boogie constructs that `kivl check` accepts and `kivl verify` handles soundly: floating-point
//! types, literals, operations and rounding modes (IEEE semantics through Z3's FloatingPoint
//! theory, `unsupported` for an unknown float builtin) and the static rules of assumption
//! variables (ivl::assumption_vars).

mod common;
use common::*;
use std::io::Write;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kivl-constructs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path).unwrap().write_all(text.as_bytes()).unwrap();
    path
}

const FLOATS: &str = "function {:builtin \"fp.eq\"} FEQ(float24e8, float24e8) returns (bool);\n\
                      procedure P(x: float24e8, m: rmode)\n  requires x > 0x1.0e0f24e8 && x < 0x1.0e2f24e8;\n{\n  \
                      assert x + x > x && FEQ(x, x) && m == m;\n  \
                      assert {:capture \"x\", x} {:capture \"m\", m} x + 0x1.0e-6f24e8 > x;\n}\n";

#[test]
fn floats_verify_with_ieee_semantics() {
    // Line 5 holds for every 1 < x < 256; line 6 fails where the addend 2^-24 is absorbed by rounding
    // (the model's float and rounding-mode values are read back without trouble).
    let p = temp_file("floats.bpl", FLOATS);
    let verify = kivl(&["verify", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(verify.code, 1, "{}", verify.json);
    assert_eq!(verify.error_summary(), vec![("assertion".to_string(), 6)], "{}", verify.json);
    // An SMT-LIB float operation kivl does not know is refused where it is declared.
    let unknown = temp_file("float_unknown.bpl", "function {:builtin \"fp.frob\"} F(float24e8) returns (float24e8);\n");
    let verify = kivl(&["verify", "--format", "json", unknown.to_str().unwrap()]);
    assert_eq!(verify.code, 2, "{}", verify.json);
    assert_eq!(verify.error_summary(), vec![("unsupported".to_string(), 1)], "{}", verify.json);
}

#[test]
fn mixed_float_types_are_a_type_error() {
    let p = temp_file("float_mix.bpl", "procedure P(x: float24e8, y: float53e11)\n{\n  assert x == y;\n}\n");
    let run = kivl(&["check", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert_eq!(run.error_summary(), vec![("type".to_string(), 3)], "{}", run.json);
}

#[test]
fn assumption_variables_follow_boogies_static_rules() {
    let ok = "procedure P(n: int)\n{\n  var {:assumption} a: bool;\n  a := a && n > 0;\n  havoc a;\n}\n";
    let run = kivl(&["check", "--format", "json", temp_file("av_ok.bpl", ok).to_str().unwrap()]);
    assert_eq!((run.code, run.verdict()), (0, "verified"), "{}", run.json);
    // Boogie 2.4.1 rejects the same (test1/AssumptionVariables0.bpl, AssumptionVariables1.bpl).
    let bad = "var {:assumption} g: bool;\n\
               procedure P(n: int)\n  modifies g;\n{\n  var {:assumption} a: bool;\n  \
               var {:assumption} i: int;\n  var {:assumption} w: bool where w;\n  \
               a := true;\n  g := g && true;\n  g := g && n > 0;\n}\n";
    let run = kivl(&["check", "--format", "json", temp_file("av_bad.bpl", bad).to_str().unwrap()]);
    assert_eq!(run.code, 2);
    let type_at = |l: u64| ("type".to_string(), l);
    assert_eq!(run.error_summary(), vec![type_at(6), type_at(7), type_at(8), type_at(10)], "{}", run.json);
}

#[test]
fn desugared_assumption_variables_print_and_check_again() {
    // The havoc rule adds plain locals (`a$old`); printed in one `var` with `{:assumption} a`
    // they would become assumption variables themselves when parsed again.
    let src = repo_dir("tests/boogie/assumption_vars.bpl");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(["transform", "--emit", "desugared", src.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("a$old"), "{text}");
    let p = temp_file("av_desugared.bpl", &text);
    let run = kivl(&["check", "--format", "json", p.to_str().unwrap()]);
    assert_eq!((run.code, run.verdict()), (0, "verified"), "{}", run.json);
}

#[test]
fn code_expressions_are_refused_where_kivl_cannot_read_them_exactly() {
    // Each of lines 3 and 5-11 holds one code expression kivl refuses: in a contract (checked
    // and assumed), in a loop invariant, around a loop, calling a procedure that is not
    // inlined, assigning a global, in an `if` condition, in a lambda, and in an `assert` that
    // leads a block a `goto` may loop to (a loop invariant).
    let src = "var g: int;\nprocedure Q();\nprocedure P(); modifies g; requires |{ A: return true; }|;\n\
               implementation P() {\n  while (*) invariant |{ A: return true; }|; { }\n  \
               assert |{ A: goto A; }|;\n  assert |{ A: call Q(); return true; }|;\n  \
               assert |{ A: g := 1; return true; }|;\n  if (|{ A: return true; }|) { }\n  \
               assert (lambda i: int :: |{ A: return i > 0; }|)[1];\n  \
               L: assert |{ A: return true; }|;\n  goto L;\n}\n";
    let p = temp_file("code_expr_refused.bpl", src);
    let check = kivl(&["check", "--format", "json", p.to_str().unwrap()]);
    assert_eq!((check.code, check.verdict()), (0, "verified"), "{}", check.json);
    let verify = kivl(&["verify", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(verify.code, 2, "{}", verify.json);
    let at = |l: u64| ("unsupported".to_string(), l);
    let mut got = verify.error_summary();
    got.sort();
    assert_eq!(got, vec![at(3), at(5), at(6), at(7), at(8), at(9), at(10), at(11)], "{}", verify.json);
}
