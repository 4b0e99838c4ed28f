//! Large bodies are parsed in pieces on several threads (`parser::pieces`); the result must be
//! exactly the sequential parse (`parse_program` parses one declaration at a time on one
//! thread), spans included, and syntax errors must still be reported as in a sequential parse.

use ivl::parser::{parse_decls, parse_program};
use std::fmt::Write as _;

/// A GPUVerify-like implementation of about `kb` kilobytes: labelled blocks of assignments,
/// asserts with attributes, nested `if`s and `goto`s.
fn big_impl(kb: usize) -> String {
    let mut s = String::from(
        "implementation {:source_name \"k\"} {:kernel} K(x: bv32) returns (r: bv32)\n{\n  var v$1: bv32;\n  var p: bool;\n\n",
    );
    let mut i = 0;
    while s.len() < kb * 1024 {
        let _ = write!(
            s,
            "  $L{i}:\n    v$1 := BV32_ADD(v$1, {i}bv32);\n    assert {{:tag \"t{i}\"}} p ==> v$1 == (if p then x else {i}bv32);\n    if (p) {{\n      inner{i}: r := v$1[8:0] ++ r[32:8];\n    }} else {{\n      havoc p;\n    }}\n    // a comment with a fake label Lx: and a ; semicolon\n    goto $L{};\n\n",
            i + 1
        );
        i += 1;
    }
    let _ = write!(s, "  $L{i}:\n    return;\n}}");
    s
}

fn prelude() -> &'static str {
    "function BV32_ADD(bv32, bv32): bv32;\nprocedure {:kernel} K(x: bv32) returns (r: bv32);\n"
}

#[test]
fn pieces_equal_the_sequential_parse() {
    let body = big_impl(700);
    let (ds, diags) = parse_decls(&body);
    assert!(diags.is_empty(), "{diags:?}");
    let (p, d2) = parse_program(&body);
    assert!(d2.is_empty());
    assert_eq!(ds, p.decls);
    let stmts = match &ds[0].kind {
        ivl::ast::DeclKind::Implementation(i) => i.body.stmts.len(),
        _ => panic!("an implementation"),
    };
    assert!(stmts > 10_000, "{stmts}");
    // And with an offset.
    let (at, _) = ivl::parser::parse_decls_at(&body, 1234);
    let mut shifted = p.decls.clone();
    ivl::visit::shift_spans(&mut shifted[0], 1234);
    assert_eq!(at, shifted);
    let _ = prelude();
}

#[test]
fn a_syntax_error_in_a_later_piece_is_reported_as_sequentially() {
    let mut body = big_impl(700);
    let at = body.len() * 3 / 4;
    let at = at + body[at..].find("havoc p;").expect("a havoc");
    body.replace_range(at..at + "havoc p;".len(), "havoc p");
    let (ds, diags) = parse_decls(&body);
    assert!(ds.is_empty());
    let (_, seq) = parse_program(&body);
    assert!(!diags.is_empty());
    assert_eq!(diags, seq);
    assert!(diags[0].primary.span.start as usize > at, "{:?}", diags[0]);
}

#[test]
fn a_label_inside_a_while_invariant_list_falls_back() {
    // `while (*) invariant e; L: ...` is not a statement sequence; the cut before `L` must not
    // turn it into one.
    let mut body = big_impl(600);
    let mid = body.len() / 2;
    let at = mid + body[mid..].find("  $L").expect("a label");
    body.insert_str(at, "  while (*) invariant p;\n");
    let (ds, diags) = parse_decls(&body);
    let (p, seq) = parse_program(&body);
    assert_eq!(diags, seq);
    assert_eq!(ds, p.decls);
    assert!(!diags.is_empty());
}

/// The corpus files with a declaration big enough to be cut parse as sequentially.
#[test]
fn corpus_large_declarations() {
    let Some(gpu) = ivl::corpus::gpu() else { return };
    let text = std::fs::read_to_string(gpu.join("gpuverify/gpgpu-sim_ispass2009/STO/sha1.bpl")).expect("sha1.bpl");
    let chunks = ivl::split::split_decls(&text);
    let big = chunks.iter().max_by_key(|c| c.end - c.start).expect("chunks");
    let chunk = &text[big.start as usize..big.end as usize];
    let (pieces, d1) = ivl::parser::parse_decls_at(chunk, big.start);
    let (seq, d2) = parse_program(&text);
    assert!(d1.is_empty() && d2.is_empty());
    let same = seq.decls.iter().find(|d| d.span.start == big.start).expect("the declaration");
    assert_eq!(&pieces[0], same);
}
