//! Parallel parsing of one very large declaration.
//!
//! GPUVerify emits kernels whose whole text is one implementation (`sha1.bpl`: 3.6 MB in one
//! body), so cutting the file into declarations ([`crate::split`]) gives no parallelism. This
//! module cuts the *body* of such a declaration into pieces at statement boundaries, lexes and
//! parses the pieces on several threads, and glues the statement lists together:
//!
//! - piece 0 is the text up to the first cut, parsed as the whole declaration after a
//!   synthetic `}` (whose span is that of the real closing brace, so every span comes out as
//!   in a sequential parse);
//! - every later piece is a run of statements, parsed with the grammar's statement-list entry;
//!   the last one stops before the closing brace (the declaration's last character).
//!
//! The cuts are found without scanning the body: near each target offset, the first line that
//! starts (after indentation) with a word, where the line before ends with `;` and the word is
//! not `invariant`, `free`, `var` or `else` (which may continue what comes before), or where
//! the line before ends with `}` and the line is a label `L:`. The line before must not hold
//! `//`, so that its last character is its last token. Such a guess is checked by the parse
//! itself, which is why it needs no scan:
//!
//! - a cut inside a block comment leaves piece 0 with an unterminated comment, a lexer error;
//!   strings and line comments end at their line, so a line start is never inside one;
//! - so when piece 0 lexes cleanly, the pieces' token streams concatenate to the file's;
//! - a cut inside braces or parentheses leaves piece 0, closed by one `}`, unbalanced: it does
//!   not parse as a declaration;
//! - a cut at the body's top level falls between two statements, and a statement ended by `;`
//!   or followed by a label cannot extend further, so when every piece parses, the
//!   concatenation parses to the same tree.
//!
//! When anything goes wrong (a lexer error, a piece that does not parse, no cut found), the
//! caller parses the declaration sequentially, which also produces the diagnostics: correct
//! input gets the speed-up, wrong input the usual messages.

use super::{run_fast, TokData, TokInput, Which};
use crate::ast::{Decl, DeclKind, Span, Stmt};
use crate::lexer::{is_ident_cont, is_ident_start, lex, Tok};
use std::rc::Rc;

/// Declarations shorter than this are parsed on one thread.
pub(crate) const PARALLEL_MIN_BYTES: usize = 256 * 1024;
/// Pieces are at least this long (thread start-up and grammar construction cost ~0.3 ms).
const MIN_PIECE_BYTES: usize = 128 * 1024;

/// Words that continue the declaration part before them after a `;`: more loop or barrier
/// invariants, more local variables, an `else`. No cut before them.
const CONTINUES: [&[u8]; 4] = [b"invariant", b"free", b"var", b"else"];

/// Whether the line starting at `p` (just after a newline) may start a piece; see the module
/// documentation. `prev` is the line before, without its newline.
fn cut_line(b: &[u8], p: usize, prev: &[u8]) -> Option<usize> {
    let mut i = p;
    while i < b.len() && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    let start = i;
    if !b.get(i).is_some_and(|&c| is_ident_start(c)) {
        return None;
    }
    while i < b.len() && is_ident_cont(b[i]) {
        i += 1;
    }
    if prev.windows(2).any(|w| w == b"//") {
        return None;
    }
    let last = prev.iter().rev().find(|c| !c.is_ascii_whitespace())?;
    let ok = match last {
        b';' => !CONTINUES.contains(&&b[start..i]),
        b'}' => is_label_colon(b, i),
        _ => false,
    };
    ok.then_some(start)
}

/// Whether an identifier ending at `i` is followed by the `:` of a label (not `:=` or `::`).
fn is_label_colon(b: &[u8], i: usize) -> bool {
    let mut j = i;
    while j < b.len() && matches!(b[j], b' ' | b'\t') {
        j += 1;
    }
    b.get(j) == Some(&b':') && !matches!(b.get(j + 1), Some(b'=') | Some(b':'))
}

/// The first cut at or after offset `from` (see [`cut_line`]), before `limit`.
fn cut_after(b: &[u8], from: usize, limit: usize) -> Option<usize> {
    let mut line = b[..from].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    loop {
        let next = line + b[line..limit].iter().position(|&c| c == b'\n')? + 1;
        if next >= from {
            if let Some(c) = cut_line(b, next, &b[line..next - 1]) {
                return (c < limit).then_some(c);
            }
        }
        line = next;
    }
}

/// Up to `n - 1` cuts that split `b` (whose last character is the body's closing brace) into
/// `n` pieces of roughly equal length, each at least [`MIN_PIECE_BYTES`] long.
fn choose_cuts(b: &[u8], close: usize, n: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for k in 1..n {
        let target = (b.len() * k / n).max(out.last().map_or(0, |&c| c + MIN_PIECE_BYTES));
        if target >= close {
            break;
        }
        match cut_after(b, target, close) {
            Some(c) if close - c >= MIN_PIECE_BYTES => out.push(c),
            _ => break,
        }
    }
    out
}

/// The output of one piece.
enum Piece {
    Head(Box<Decl>),
    Stmts(Vec<Stmt>),
}

/// Lexes and parses one piece; `None` on any error.
fn parse_piece(text: &str, base: u32, lo: usize, hi: usize, close: Option<Span>) -> Option<Piece> {
    let mut lexed = lex(&text[lo..hi], base + lo as u32);
    if !lexed.errors.is_empty() {
        return None;
    }
    if let Some(span) = close {
        lexed.toks.push(Tok::RBrace);
        lexed.spans.push(span);
    }
    let eoi = lexed.spans.last().map_or(lexed.end, |s| s.end) as usize;
    let hi = lexed.toks.len();
    let input = TokInput { data: Rc::new(TokData { toks: lexed.toks, spans: lexed.spans }), lo: 0, hi, eoi };
    let which = if close.is_some() { Which::Decl } else { Which::Stmts };
    match run_fast(input, Rc::new(lexed.names), which)? {
        super::Out::Decl(mut ds) if ds.len() == 1 => Some(Piece::Head(Box::new(ds.pop()?))),
        super::Out::Stmts(ss) => Some(Piece::Stmts(ss)),
        _ => None,
    }
}

/// Parses a large procedure or implementation (text starting at offset `base`) in pieces on
/// up to `threads` threads. `None` when the declaration is small, cannot be cut, or any piece
/// fails: then parse it sequentially.
pub(crate) fn parse_in_pieces(text: &str, base: u32, threads: usize) -> Option<Decl> {
    if threads < 2 || text.len() < PARALLEL_MIN_BYTES {
        return None;
    }
    let close = text.len() - 1;
    if text.as_bytes()[close] != b'}' {
        return None;
    }
    let cuts = choose_cuts(text.as_bytes(), close, crate::parallel::parts_for(threads));
    if cuts.is_empty() {
        return None;
    }
    let close_span = Span::new(base as usize + close, base as usize + close + 1);
    let mut bounds = vec![0];
    bounds.extend(&cuts);
    bounds.push(close);
    let pieces = bounds.len() - 1;
    let results = crate::parallel::in_turn(pieces, vec![(); threads.min(pieces)], |(), k| {
        let head = (k == 0).then_some(close_span);
        parse_piece(text, base, bounds[k], bounds[k + 1], head)
    })
    .ok()?;
    let mut results = results.into_iter();
    let Some(Some(Piece::Head(mut decl))) = results.next() else {
        return None;
    };
    let body = match &mut decl.kind {
        DeclKind::Implementation(i) => &mut i.body,
        DeclKind::Procedure(p) => p.body.as_mut()?,
        _ => return None,
    };
    for r in results {
        match r {
            Some(Piece::Stmts(ss)) => body.stmts.extend(ss),
            _ => return None,
        }
    }
    Some(*decl)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body of `lines` (each repeated until the text is `bytes` long), wrapped in an
    /// implementation with one local.
    fn body_of(lines: &str, bytes: usize) -> String {
        let mut src = String::from("implementation P() {\n  var x: int;\n");
        let mut i = 0;
        while src.len() < bytes {
            src.push_str(&lines.replace("#", &i.to_string()));
            i += 1;
        }
        src.push_str(&format!("  L{i}:\n    return;\n}}"));
        src
    }

    /// The sequential parse of `src`, spans shifted by `base`.
    fn sequential(src: &str, base: u32) -> Decl {
        let (seq, diags) = crate::parser::parse_program(src);
        assert!(diags.is_empty(), "{diags:?}");
        let mut seq = seq.decls[0].clone();
        crate::visit::shift_spans(&mut seq, base);
        seq
    }

    #[test]
    fn cuts_at_top_level_statement_starts_only() {
        let src = "implementation {:a} P() {\n  var x: int;\n  x := 1;\n  if (*) {\n  L9: x := 2;\n  }\n  L1: assume {:b} x == 1;\n  // x := 3;\n  goto L0;\n  var y: int;\n  invariant x;\n  L2: x := f(a, b);\n}";
        let b = src.as_bytes();
        let mut cuts = Vec::new();
        let mut from = 0;
        while let Some(c) = cut_after(b, from, b.len() - 1) {
            cuts.push(&src[c..c + 2]);
            from = c + 1;
        }
        // Not the locals, not `L9` (the line before ends with `{`), not `goto` (after a comment
        // line), not `var` and `invariant` (continuations).
        assert_eq!(cuts, ["x ", "if", "L1", "L2"]);
    }

    #[test]
    fn a_large_body_is_parsed_in_pieces() {
        let src = body_of(
            "  L#:\n    x := x + #;\n    if (x > 0) {\n      x := 0;\n    }\n    goto L#;\n",
            3 * PARALLEL_MIN_BYTES,
        );
        let d = parse_in_pieces(&src, 7, 3).expect("cut into pieces");
        assert_eq!(d, sequential(&src, 7));
        assert!(parse_in_pieces(&src, 0, 1).is_none(), "one thread: no pieces");
    }

    /// Guesses inside a block comment or a nested block are refuted by the pieces' own lexing
    /// and parsing: the result is then `None`, never a different tree.
    #[test]
    fn wrong_guesses_fall_back() {
        let len = 3 * PARALLEL_MIN_BYTES;
        let mut comment = body_of("  x := #;\n", len / 4);
        comment.push_str("");
        let comment = comment.replacen("  L", "  /*\n", 1);
        let comment = comment.replace("  return;\n}", "");
        let comment = format!("{comment}{}  */\n  return;\n}}", "  x := 1;\n".repeat(len / 10));
        assert!(parse_in_pieces(&comment, 0, 2).is_none(), "cut inside a comment");
        assert_eq!(crate::parser::parse_decls(&comment).1, Vec::new());

        let nested = format!(
            "implementation P() {{\n  var x: int;\n  if (*) {{\n{}  }}\n  return;\n}}",
            "    x := 1;\n".repeat(len / 12)
        );
        assert!(parse_in_pieces(&nested, 0, 2).is_none(), "cut inside braces");
        let (d, diags) = crate::parser::parse_decls(&nested);
        assert!(diags.is_empty());
        assert_eq!(d[0], sequential(&nested, 0));

        let broken = body_of("  x := #;\n", len).replacen("x := 30000;", "x := ;", 1);
        assert!(parse_in_pieces(&broken, 0, 2).is_none(), "a syntax error in a piece");
        assert_eq!(crate::parser::parse_decls(&broken).1.len(), 1);
    }

    #[test]
    fn no_body_no_cuts() {
        assert!(parse_in_pieces(&"procedure P(); requires x > 0;\n".repeat(20000), 0, 2).is_none());
    }
}

#[cfg(test)]
mod corpus_tests {
    #[test]
    fn sha1_is_cut() {
        let Some(gpu) = crate::corpus::gpu() else { return };
        let text = std::fs::read_to_string(gpu.join("gpuverify/gpgpu-sim_ispass2009/STO/sha1.bpl")).expect("sha1.bpl");
        let chunks = crate::split::split_decls(&text);
        let big = chunks.iter().max_by_key(|c| c.end - c.start).expect("chunks");
        let chunk = &text[big.start as usize..big.end as usize];
        let chosen = super::choose_cuts(chunk.as_bytes(), chunk.len() - 1, 2);
        assert_eq!(chosen.len(), 1);
        let d = super::parse_in_pieces(chunk, big.start, 2).expect("pieces");
        let (seq, diags) = crate::parser::parse_program(&text);
        assert!(diags.is_empty());
        assert!(seq.decls.contains(&d), "the pieces give the sequential tree");
    }
}
