//! A deterministic mutation test: corpus-like programs with tokens deleted, duplicated or
//! swapped, garbage inserted, and the text truncated, at every position. For every mutant:
//! no panic; every declaration the splitter finds is either parsed or has a diagnostic inside
//! it (nothing vanishes silently); a mutant without diagnostics prints and parses back to the
//! same tree; and a cut strictly inside a declaration always yields a diagnostic (except where
//! the cut leaves a complete procedure declaration, as after `procedure P(); modifies x;`).

use ivl::ast::{DeclKind, Span};
use ivl::lexer::lex;
use ivl::parser::parse_program;
use ivl::printer::print_program;
use ivl::split::split_decls;
use ivl::visit::strip_spans;

const KERNEL: &str = r#"type _SIZE_T_TYPE = bv32;
var {:source_name "A"} {:group_shared} $$A: [bv32]bv32;
axiom {:array_info "$$A"} {:elem_width 32} true;
const {:local_id_x} local_id_x: bv32;
const {:existential true} _b0: bool;
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32) : bv32;
function {:inline true} f(x: int) returns (r: bool) { x > 0 ==> (forall i: int :: { g(i) } g(i) < x) }
procedure {:inline 1} _LOG_READ_$$A(_P: bool, _offset: bv32, _value: bv32);
  modifies _READ_HAS_OCCURRED_$$A;
procedure {:kernel} foo(n: bv32) returns (r: bv32);
  requires {:sourceloc_num 0} n != 0bv32;
  ensures r[8:0] == 0bv8 ++ r[0:0];
implementation {:source_name "foo"} foo(n: bv32) returns (r: bv32)
{
  var v0$1: bv32, p$1: bool;
  $entry:
    v0$1 := BV32_ADD(local_id_x, 1bv32);
    $$A[v0$1] := (if p$1 then v0$1 else $$A[v0$1]);
    call {:sourceloc} _LOG_READ_$$A(true, v0$1, $$A[v0$1]);
    assume {:captureState "s"} true;
    goto $for.cond, $exit;
  $for.cond:
    assert {:tag "loop_head"} _b0 ==> p$1;
    havoc p$1;
    barrier {:local} invariant {:instantiate local_id_x} $$A[local_id_x] == 0bv32;
    while (p$1) invariant (lambda i: bv32 :: i == i)[n]; { break; }
    if (*) { return; } else if (n == 0bv32) { vec psi $$A[n] := 1bv32; }
    goto $exit;
  $exit:
    return;
}
"#;

const PLAIN: &str = r#"type T a;
const unique c1, c2: T int;
var m: [int][int]real where m[0][0] > 0.5;
axiom (exists x: int, y: int :: x div 2 == y mod 3 && -x <= y) <==> c1 == c2;
procedure P({:a} x: int, y: int) returns (z: int) modifies g; ensures z == old(g) + x; {
  var t: int;
  L: t, z := x * 2, real(y) / 2.0e1 : int;
  call z := P(t, y);
  if (x < y) { z := x; } else { z := y; }
}
"#;

/// Checks the properties of the module documentation for one (mutated) text; returns whether
/// it had diagnostics.
fn check(text: &str) -> bool {
    let (program, diags) = parse_program(text);
    let chunks = split_decls(text);
    for c in &chunks {
        let span = Span { start: c.start, end: c.end };
        let parsed = program.decls.iter().any(|d| d.span == span);
        let diagnosed = diags.iter().any(|d| d.primary.span.start >= c.start && d.primary.span.start <= c.end);
        assert!(parsed != diagnosed, "chunk {span:?} parsed={parsed} diagnosed={diagnosed} in:\n{text}\n{diags:?}");
    }
    assert!(
        program.decls.iter().all(|d| chunks.iter().any(|c| d.span == Span { start: c.start, end: c.end })),
        "a declaration that is no chunk:\n{text}"
    );
    let diagnosed = !diags.is_empty();
    if diags.is_empty() {
        let printed = print_program(&program);
        let (mut again, d2) = parse_program(&printed);
        assert!(d2.is_empty(), "printed mutant does not parse: {d2:?}\n{printed}");
        let mut p1 = program;
        strip_spans(&mut p1);
        strip_spans(&mut again);
        assert_eq!(p1, again, "round trip differs:\n{text}\n---\n{printed}");
    }
    diagnosed
}

/// Token boundaries (start, end) of the text.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    lex(text, 0).spans.iter().map(|s| (s.start as usize, s.end as usize)).collect()
}

fn mutants(text: &str) -> Vec<String> {
    let toks = tokens(text);
    let mut out = Vec::new();
    for (i, &(s, e)) in toks.iter().enumerate() {
        // Delete the token.
        out.push(format!("{}{}", &text[..s], &text[e..]));
        // Duplicate it.
        out.push(format!("{}{}", &text[..e], &text[s..]));
        // Swap it with the next one.
        if let Some(&(s2, e2)) = toks.get(i + 1) {
            out.push(format!("{}{}{}{}{}", &text[..s], &text[s2..e2], &text[e..s2], &text[s..e], &text[e2..]));
        }
        // Insert garbage before it.
        for g in ["@", "{", ")", ";", "procedure ", "\"", "/*", "]", ":=", "0bv"] {
            out.push(format!("{}{g}{}", &text[..s], &text[s..]));
        }
    }
    out
}

#[test]
fn mutants_parse_cleanly_or_are_diagnosed() {
    let (mut clean, mut diagnosed) = (0, 0);
    for text in [KERNEL, PLAIN] {
        assert!(!check(text));
        for m in mutants(text) {
            if check(&m) {
                diagnosed += 1;
            } else {
                clean += 1;
            }
        }
    }
    // Both outcomes occur (deleting `free`-like optional tokens or swapping names is harmless).
    assert!(diagnosed > 3000 && clean > 100, "{diagnosed} diagnosed, {clean} clean mutants");
}

#[test]
fn truncation_inside_a_declaration_is_always_diagnosed() {
    for text in [KERNEL, PLAIN] {
        let chunks = split_decls(text);
        let mut cuts: Vec<usize> = tokens(text).iter().flat_map(|&(s, e)| [s, e, (s + e) / 2]).collect();
        cuts.sort();
        cuts.dedup();
        for cut in cuts {
            if !text.is_char_boundary(cut) {
                continue;
            }
            let prefix = &text[..cut];
            check(prefix);
            let inside = chunks.iter().any(|c| (c.start as usize) < cut && cut < c.end as usize);
            if !inside {
                continue;
            }
            let (p, d) = parse_program(prefix);
            if d.is_empty() {
                // Only a procedure declaration cut after one of its `;`-terminated specs is whole.
                let last = p.decls.last().expect("a declaration");
                assert!(
                    matches!(&last.kind, DeclKind::Procedure(pr) if pr.body.is_none())
                        && prefix.trim_end().ends_with(';'),
                    "truncation at {cut} parsed without a diagnostic:\n{prefix}"
                );
            }
        }
    }
}
