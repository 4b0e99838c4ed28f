//! Syntax errors: messages, locations (line and column), one diagnostic per bad declaration
//! with the good ones kept, unsupported constructs, lexical errors, and pathological input
//! (deep nesting, long chains, garbage) that must give diagnostics, never a crash or a hang.

use ivl::diag::{Diagnostic, ErrorKind, SourceFile};
use ivl::parser::{parse_expr, parse_program, MAX_EXPR_DEPTH, MAX_NESTING};

/// (line, column, kind, message) of each diagnostic.
fn errors(src: &str) -> Vec<(usize, usize, ErrorKind, String)> {
    let file = SourceFile::new("t.kbpl", src);
    let (_, diags) = parse_program(src);
    diags
        .iter()
        .map(|d| {
            let (l, c) = file.line_col(d.primary.span.start);
            (l, c, d.kind, d.message.clone())
        })
        .collect()
}

fn one_error(src: &str) -> (usize, usize, ErrorKind, String) {
    let mut e = errors(src);
    assert_eq!(e.len(), 1, "{src}: {e:?}");
    e.remove(0)
}

fn syntax(l: usize, c: usize, m: &str) -> (usize, usize, ErrorKind, String) {
    (l, c, ErrorKind::Syntax, m.to_string())
}

#[test]
fn missing_semicolon_points_at_the_next_token() {
    assert_eq!(one_error("procedure P()\n{\n  x := 1\n}\n"), syntax(4, 1, "expected `[`, `:`, `,` or `;`, found `}`"));
    assert_eq!(one_error("var x: int\nvar y: int;"), syntax(1, 11, "expected `where`, `,` or `;`, found end of input"));
}

#[test]
fn messages_name_what_was_expected_and_found() {
    assert_eq!(one_error("procedure P()\n{\n  assert x >;\n}"), syntax(3, 13, "expected expression, found `;`"));
    assert_eq!(one_error("const c int;"), syntax(1, 9, "expected `,` or `:`, found `int`"));
    assert_eq!(one_error("procedure Q() { goto; }"), syntax(1, 21, "expected identifier, found `;`"));
    assert_eq!(one_error("garbage here"), syntax(1, 1, "expected declaration, found `garbage`"));
    assert_eq!(one_error("var x: int @;"), syntax(1, 12, "expected `where`, `,` or `;`, found `@`"));
    assert_eq!(
        one_error("procedure P() { if (x) { } else { x := ; } }"),
        syntax(1, 40, "expected expression, found `;`")
    );
    assert_eq!(
        one_error("axiom (forall int x :: true);"),
        syntax(1, 15, "expected `<`, `{` or identifier, found `int`")
    );
    assert_eq!(one_error("type {:a} {1} T;"), syntax(1, 11, "only attributes, not triggers, allowed here"));
}

#[test]
fn truncated_input_reports_end_of_input_after_the_last_token() {
    assert_eq!(one_error("procedure P(x: int"), syntax(1, 19, "expected `where`, `,` or `)`, found end of input"));
    let e = one_error("implementation P() {\n  x := 1;\n");
    assert_eq!((e.0, e.1), (2, 10));
    assert!(e.3.contains("`}`") && e.3.ends_with("found end of input"), "{}", e.3);
}

#[test]
fn one_diagnostic_per_bad_declaration_and_good_ones_kept() {
    let src = "var a: int;\n\
               var b int;\n\
               procedure P() { a := ; }\n\
               const c: int;\n\
               axiom a > ;\n\
               function f(x: int): int { x }\n\
               implementation Q() { call := 1; }\n";
    let (p, diags) = parse_program(src);
    let names: Vec<_> = p.decls.iter().map(|d| d.name().map(|n| n.as_str().to_string())).collect();
    assert_eq!(names, [Some("a".into()), Some("c".into()), Some("f".into())]);
    let file = SourceFile::new("t", src);
    let lines: Vec<_> = diags.iter().map(|d| file.line_col(d.primary.span.start).0).collect();
    assert_eq!(lines, [2, 3, 5, 7]);
    assert!(diags.iter().all(|d| d.kind == ErrorKind::Syntax));
}

#[test]
fn a_body_missing_its_brace_spoils_only_itself() {
    let src = "implementation P() {\n  x := 1;\nprocedure Q();\nvar g: int;\n";
    let (p, diags) = parse_program(src);
    assert_eq!(p.decls.len(), 2);
    assert_eq!(diags.len(), 1);
    assert_eq!(SourceFile::new("t", src).line_col(diags[0].primary.span.start).0, 2);
}

#[test]
fn unsupported_constructs_have_their_own_kind() {
    let e = one_error("procedure P() {\n  yield;\n}");
    assert_eq!((e.0, e.1, e.2), (2, 3, ErrorKind::Unsupported));
    // Float literals parse (and are typed by their suffix, ivl::floats).
    assert_eq!(errors("axiom x == 0x1.8e0f24e8 || x == -0NaN24e8;"), vec![]);
    // Code expressions parse (they are read or refused after type checking, ivl::code_exprs).
    assert_eq!(errors("axiom |{ A: return true; }|;"), vec![]);
}

#[test]
fn lexical_errors() {
    assert_eq!(one_error("axiom true;\n/* open"), syntax(2, 1, "unterminated comment"));
    assert_eq!(one_error("axiom {:a \"open\n} true;"), syntax(1, 11, "unterminated string literal"));
    // A byte-order mark is blank.
    assert!(errors("\u{feff}axiom true;").is_empty());
    // Nested comments are skipped whole.
    assert!(errors("/* a /* b */ c */ axiom true;").is_empty());
    // Non-ASCII text outside comments and strings is an unknown token.
    let e = one_error("axiom x ≈ y;");
    assert_eq!((e.0, e.1), (1, 9));
    assert!(e.3.ends_with("found `≈`"), "{}", e.3);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 100_000;
    for src in [
        format!("axiom {}x{};", "(".repeat(n), ")".repeat(n)),
        format!("axiom {}x;", "if a then ".repeat(n)),
        format!("axiom x[{}0{}];", "m[".repeat(n), "]".repeat(n)),
        format!("var x: {}int;", "[int]".repeat(n)),
        format!("implementation P() {{ {} }}", "{ ".repeat(n)),
        format!("implementation P() {{ if (*) {{ }} {} }}", "else if (*) { } ".repeat(n)),
    ] {
        let e = errors(&src);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].3, format!("nesting too deep (more than {MAX_NESTING} levels)"));
    }
    // Just below the limit is fine.
    let k = MAX_NESTING as usize - 2;
    assert!(parse_expr(&format!("{}x{}", "(".repeat(k), ")".repeat(k))).is_ok());
}

#[test]
fn long_operator_chains_are_bounded() {
    let too_deep = format!("expression nested too deeply (more than {MAX_EXPR_DEPTH} levels)");
    for src in [
        format!("axiom {}x;", "!".repeat(200_000)),
        format!("axiom x{};", " + x".repeat(200_000)),
        format!("axiom x{};", " ==> x".repeat(200_000)),
        format!("axiom x{};", "[0]".repeat(200_000)),
        format!("procedure P() {{ assert x{}; }}", " && x".repeat(200_000)),
    ] {
        let e = errors(&src);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].3, too_deep);
    }
    // A truncated over-long chain is a plain syntax error (and no crash while dropping it).
    let e = errors(&format!("axiom x{}", " + x".repeat(200_000)));
    assert_eq!(e.len(), 1);
    // Long but allowed.
    let k = MAX_EXPR_DEPTH as usize - 10;
    assert!(parse_expr(&format!("x{}", " + x".repeat(k))).is_ok());
    // Many statements are not nesting.
    let (p, d) = parse_program(&format!("implementation P() {{ {} }}", "x := x + 1; ".repeat(100_000)));
    assert!(d.is_empty() && p.decls.len() == 1);
}

#[test]
fn garbage_gives_diagnostics() {
    let mut seed = 0x2545F4914F6CDD1Du64;
    let alphabet: Vec<char> = "(){}[];:=<>!&|+-*/,.\"'xyz019 \n\tvarprocedure{:}é∀".chars().collect();
    for _ in 0..200 {
        let mut s = String::new();
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.push(alphabet[(seed % alphabet.len() as u64) as usize]);
        }
        let (p, d) = parse_program(&s);
        // Declarations and diagnostics point into the text, in order, without overlapping.
        let len = s.len() as u32;
        let mut at = 0;
        for decl in &p.decls {
            assert!(at <= decl.span.start && decl.span.start < decl.span.end && decl.span.end <= len, "{s:?}");
            at = decl.span.end;
        }
        for diag in &d {
            assert!(diag.primary.span.start <= diag.primary.span.end && diag.primary.span.end <= len, "{s:?}");
            assert!(s.is_char_boundary(diag.primary.span.start as usize), "{s:?}");
        }
        assert!(!p.decls.is_empty() || !d.is_empty() || s.trim().is_empty(), "{s:?}");
    }
}

#[test]
fn diagnostics_render_with_source_lines() {
    let src = "procedure P()\n{\n  x := 1\n}\n";
    let (_, diags): (_, Vec<Diagnostic>) = parse_program(src);
    let text = diags[0].render(&SourceFile::new("k.kbpl", src), false);
    assert!(text.contains("k.kbpl:4:1"), "{text}");
    assert!(text.contains("found `}`"), "{text}");
}
